/* coll/totex: an Open MPI collective component (mca_coll_totex.so) that serves
 * MPI_Alltoall, MPI_Ialltoall and MPI_Alltoall_init (MPIX_ in Open MPI 4.1)
 * with totex's schedules (include/totex/mpi.h), selected by MCA priority with
 * no LD_PRELOAD. Built against Open MPI's internal headers (libopenmpi-dev
 * ships them); docs/mpi.md, "The Open MPI component". Not installed as a
 * header. */
#ifndef TOTEX_OMPI_COLL_TOTEX_H
#define TOTEX_OMPI_COLL_TOTEX_H

#include "ompi_config.h"

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/* the component with its MCA parameters (coll_totex_*) */
typedef struct mca_coll_totex_component_t {
    mca_coll_base_component_2_0_0_t super;
    int priority;        /* coll_totex_priority */
    int verbose;         /* coll_totex_verbose: 0, 1 (a line per communicator and block size), 2 */
    char *algorithm;     /* coll_totex_algorithm: TOTEX_ALGORITHM */
    int chunks;          /* coll_totex_chunks: TOTEX_CHUNKS (0: the model's) */
    int tune;            /* coll_totex_tune: TOTEX_TUNE (-1: default) */
    int check;           /* coll_totex_check: TOTEX_CHECK (-1: default) */
    char *size_classes;  /* coll_totex_size_classes: TOTEX_SIZE_CLASSES */
    char *network;       /* coll_totex_network: TOTEX_NETWORK */
    char *rankmap;       /* coll_totex_rankmap: TOTEX_RANKMAP */
    int test_interval;   /* coll_totex_test_interval: TOTEX_TEST_INTERVAL, microseconds (-1: default) */
} mca_coll_totex_component_t;

OMPI_MODULE_DECLSPEC extern mca_coll_totex_component_t mca_coll_totex_component;

/* a module per communicator: the modules below it, for what totex leaves (intercommunicators), saved when
   it is enabled (only their all-to-all functions are set) */
typedef struct mca_coll_totex_module_t {
    mca_coll_base_module_t super;
    mca_coll_base_comm_coll_t below;
} mca_coll_totex_module_t;
OBJ_CLASS_DECLARATION(mca_coll_totex_module_t);

int mca_coll_totex_init_query(bool enable_progress_threads, bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_totex_comm_query(struct ompi_communicator_t *comm, int *priority);

/* the MCA parameters given (not left at their defaults) put into the TOTEX_* environment the runtime reads
   (src/mpi/env.c), once, before the first call */
void mca_coll_totex_apply_params(void);
/* the progress function registered with Open MPI: takes every request of the component on (never blocking);
   returns how many completed */
int mca_coll_totex_progress(void);

END_C_DECLS
#endif
