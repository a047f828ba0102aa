kernel-1.traceg
kernel-2.traceg
