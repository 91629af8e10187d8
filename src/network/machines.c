/*
 * Named presets of real machines' interconnects. Each shape cites where it
 * comes from; `totex machines` prints this table.
 */
#include <string.h>

#include "totex/machines.h"

static const totex_machine machines[] = {
    {"bgq-midplane", "torus:4x4x4x4*k2",
     "IBM Blue Gene/Q midplane: 512 nodes, 5-D torus 4x4x4x4x2 (the E dimension of size 2 is a single link)",
     "Chen et al., 'The IBM Blue Gene/Q interconnection network and message unit', SC 2011, Section 2", 1},
    {"sequoia", "torus:16x12x16x16*k2",
     "LLNL Sequoia, the full IBM Blue Gene/Q: 98,304 nodes, 5-D torus 16x12x16x16x2",
     "LLNL Sequoia system description; Chen et al., SC 2011 (5-D torus, E dimension 2)", 0},
    {"fugaku", "torus:24x23x24*k2*ring:3*k2",
     "RIKEN Fugaku, Tofu Interconnect D: 158,976 nodes, 24x23x24 torus (X,Y,Z) times the 2x3x2 unit (A,B,C): B=3 a ring, A=2 and C=2 single links",
     "Ajima et al., 'The Tofu Interconnect D', IEEE Cluster 2018; Fugaku system configuration (24x23x24x2x3x2)", 0},
    {"tpu-v4-cube", "torus:4x4x4",
     "Google TPU v4 cube: 64 chips in a 4x4x4 3-D torus (wraparound links through the optical circuit switches)",
     "Jouppi et al., 'TPU v4: An Optically Reconfigurable Supercomputer', ISCA 2023, Section 2", 1},
    {"ncube2", "hypercube:10",
     "nCUBE 2 hypercube, 1024-node configuration (a 10-cube; the architecture scales to 2^13 nodes)",
     "nCUBE 2 Processor Manual, nCUBE Corp., 1990; Dimakopoulos & Dimopoulos 000 Section 1 names the Ncube", 1},
    {"touchstone-delta", "mesh:16x32",
     "Intel Touchstone Delta (precursor of the Paragon XP/S): 512 numeric nodes in a 16x32 2-D mesh",
     "Intel Touchstone Delta system description (Caltech CCSF, 1991); 000 Section 1 names the Delta and Paragon", 1},
    {"cray-t3d", "torus:8x8x8",
     "Cray T3D: 3-D torus of processing nodes (2 PEs per node); 8x8x8 nodes is the 1024-PE configuration",
     "Cray Research, 'Cray T3D System Architecture Overview', 1993; 000 Section 1 names the Cray T3D", 1},
};

size_t totex_machine_count(void) { return sizeof machines / sizeof machines[0]; }

const totex_machine *totex_machine_get(size_t i)
{
    return i < totex_machine_count() ? &machines[i] : NULL;
}

const totex_machine *totex_machine_find(const char *name)
{
    for (size_t i = 0; i < totex_machine_count(); i++)
        if (!strcmp(machines[i].name, name))
            return &machines[i];
    return NULL;
}
