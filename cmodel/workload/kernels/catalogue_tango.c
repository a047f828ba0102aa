/* Catalogue entries of the tango kernels (see catalogue.c).
 *
 * Replication class by the DC-L1 seed's criteria: T-AlexNet, T-ResNet and
 * T-SqueezeNet are named as replication-sensitive with "significantly high
 * replication" (AlexNet 95% replication ratio) and a 99% L1 miss-rate drop
 * with a single shared L1: every CTA (one output channel) reads the whole
 * input feature map. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/kernels_polybench_tango.h"

const gm_workload_info gm_catalogue_tango[] = {
    {"alexnet", "Tango",
     "conv1 + conv2: every CTA (one output channel) reads the whole input "
     "map; uncoalesced input loads (lanes 2724 floats apart in conv1, 27 in "
     "conv2), near-broadcast per-CTA weights; 6 launches",
     "sensitive", gm_alexnet_build},
    {"resnet", "Tango",
     "res2a, 2x2 outputs per thread: every CTA reads the whole 56x56 input "
     "maps with lanes 112 floats apart; weights near-broadcast; 1x1 and 3x3 "
     "convolutions, 4 launches",
     "sensitive", gm_resnet_build},
    {"squeezenet", "Tango",
     "fire2 + fire3 in double precision (8 B lanes): map loads 55 doubles "
     "apart across lanes, one map column per CTA; weights broadcast and "
     "identical for all CTAs; 6 launches",
     "sensitive", gm_squeezenet_build},
    {NULL, NULL, NULL, NULL, NULL},
};
