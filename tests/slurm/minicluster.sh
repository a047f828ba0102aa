# A one-node Slurm cluster on this machine, for the tests of the Slurm
# engine (docs/sweeps.md). Sourced by tests/slurm/*.sh:
#
#   . minicluster.sh
#   mc_start SCRATCH     # munged, slurmctld, slurmd; exports SLURM_CONF
#   ...                  # sbatch, squeue, sacct now talk to it
#   mc_stop              # kills the three daemons (call it from a trap)
#
# A watchdog in a session of its own stops the cluster if the shell that
# started it dies without calling mc_stop (SIGKILL, a ctest timeout).
# Everything (key, sockets, configuration, state, logs) lives in SCRATCH;
# nothing under /etc is read or written. Needs root (slurmd runs jobs as
# their user) and `scripts/install-deps --slurm`.

MC_PIDS=""
MC_WATCHDOG=""

mc_fail() {
    echo "minicluster: $*" >&2
    for f in munged.log slurmctld.log slurmd.log; do
        [ -f "$MC_DIR/$f" ] && { echo "--- $f (last 20 lines)" >&2; tail -n 20 "$MC_DIR/$f" >&2; }
    done
    return 1
}

# mc_wait SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS.
mc_wait() {
    n=$(( $1 * 5 )); shift
    while [ "$n" -gt 0 ]; do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2; n=$((n - 1))
    done
    return 1
}

mc_start() {
    MC_DIR=$1
    for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol; do
        command -v $tool >/dev/null 2>&1 ||
            { echo "minicluster: no $tool (run scripts/install-deps --slurm)" >&2; return 1; }
    done
    [ "$(id -u)" = 0 ] || { echo "minicluster: must run as root" >&2; return 1; }
    mkdir -p "$MC_DIR/munge" "$MC_DIR/state" "$MC_DIR/spool"
    # munged wants its key private and its socket's folder searchable
    chmod 700 "$MC_DIR"
    chmod 711 "$MC_DIR/munge"
    mungekey -c -f -k "$MC_DIR/munge/munge.key" || return 1
    chmod 600 "$MC_DIR/munge/munge.key"
    # Ports from this shell's pid: two of these clusters (two test runs)
    # on one machine must not meet.
    base=$(( 20000 + ($$ % 2000) * 2 ))
    node=$(hostname -s)
    cpus=$(nproc)
    cat > "$MC_DIR/slurm.conf" <<CONF
ClusterName=gmsweep-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MC_DIR/munge/munge.socket
StateSaveLocation=$MC_DIR/state
SlurmdSpoolDir=$MC_DIR/spool
SlurmctldPidFile=$MC_DIR/slurmctld.pid
SlurmdPidFile=$MC_DIR/slurmd.pid
SlurmctldLogFile=$MC_DIR/slurmctld.log
SlurmdLogFile=$MC_DIR/slurmd.log
# No cgroups in a container: processes tracked by parent pid, no task
# binding, no accounting daemon (sacct then has nothing to say).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=500 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
    SLURM_CONF=$MC_DIR/slurm.conf
    export SLURM_CONF

    munged --foreground --force --key-file="$MC_DIR/munge/munge.key" \
        --socket="$MC_DIR/munge/munge.socket" --pid-file="$MC_DIR/munge/munged.pid" \
        --seed-file="$MC_DIR/munge/munged.seed" --log-file="$MC_DIR/munged.log" \
        >> "$MC_DIR/munged.out" 2>&1 &
    MC_PIDS="$MC_PIDS $!"
    mc_wait 10 test -S "$MC_DIR/munge/munge.socket" || { mc_fail "munged did not start"; return 1; }

    slurmctld -D -i -f "$SLURM_CONF" >> "$MC_DIR/slurmctld.out" 2>&1 &
    MC_PIDS="$MC_PIDS $!"
    mc_wait 20 scontrol ping || { mc_fail "slurmctld does not answer"; return 1; }

    slurmd -D -f "$SLURM_CONF" -N "$node" >> "$MC_DIR/slurmd.out" 2>&1 &
    MC_PIDS="$MC_PIDS $!"
    mc_watchdog
    mc_wait 30 sh -c "sinfo -h -N -o '%t' | grep -Eq '^(idle|mix|alloc)'" ||
        { mc_fail "node not idle: $(sinfo -h -N -o '%N %t %E' 2>&1)"; return 1; }
    return 0
}

# Polls this shell's pid; once it is gone, cancels the jobs and kills the
# daemons. setsid: a kill of the test's process group must not take it too.
mc_watchdog() {
    cat > "$MC_DIR/watchdog.sh" <<WD
while kill -0 $$ 2>/dev/null; do sleep 1; done
SLURM_CONF=$SLURM_CONF; export SLURM_CONF
scancel --quiet --full \$(squeue -h -o %A 2>/dev/null) 2>/dev/null
sleep 5
kill $MC_PIDS 2>/dev/null
sleep 5
kill -9 $MC_PIDS 2>/dev/null
WD
    setsid sh "$MC_DIR/watchdog.sh" < /dev/null > /dev/null 2>&1 &
    MC_WATCHDOG=$!
}

mc_stop() {
    # Cancel what is still queued or running first, so that slurmd ends the
    # job steps (slurmstepd is not a child of ours and would outlive it).
    if [ -n "$MC_PIDS" ] && scontrol ping >/dev/null 2>&1; then
        scancel --quiet --full $(squeue -h -o %A 2>/dev/null) 2>/dev/null
        mc_wait 15 sh -c '[ -z "$(squeue -h 2>/dev/null)" ]'
    fi
    [ -n "$MC_WATCHDOG" ] && kill "$MC_WATCHDOG" 2>/dev/null
    MC_WATCHDOG=""
    for pid in $MC_PIDS; do kill "$pid" 2>/dev/null; done
    for pid in $MC_PIDS; do
        n=50
        while kill -0 "$pid" 2>/dev/null && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
        kill -9 "$pid" 2>/dev/null
    done
    MC_PIDS=""
MC_WATCHDOG=""
}
