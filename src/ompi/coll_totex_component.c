/* coll/totex: the component, its MCA parameters and its version check (coll_totex.h).
 *
 * Parameters (ompi_info --param coll totex --level 9), each the MCA form of a
 * TOTEX_* variable of the runtime (docs/mpi.md, "Knobs"): priority, verbose,
 * algorithm, chunks, tune, check, size_classes, network, rankmap, test_interval. One given on the command line
 * or as OMPI_MCA_coll_totex_* is put into the process's environment before
 * the first call, and wins over the TOTEX_* variable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_totex.h"
#include "ompi/version.h"

static int totex_register(void);
static int totex_open(void);
static int totex_close(void);

mca_coll_totex_component_t mca_coll_totex_component = {
    .super = {
        .collm_version = {
            MCA_COLL_BASE_VERSION_2_0_0,
            .mca_component_name = "totex",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION),
            .mca_open_component = totex_open,
            .mca_close_component = totex_close,
            .mca_register_component_params = totex_register,
        },
        .collm_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
        .collm_init_query = mca_coll_totex_init_query,
        .collm_comm_query = mca_coll_totex_comm_query,
    },
    .priority = 40,
    .chunks = 0,
    .tune = -1,
    .check = -1,
    .test_interval = -1,
};

/* the Open MPI this process runs ("4.1.4"), from MPI_Get_library_version (callable before MPI_Init) */
static int running_version(int *major, int *minor, int *release)
{
    char s[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (MPI_Get_library_version(s, &len) != MPI_SUCCESS)
        return 0;
    const char *v = strstr(s, "Open MPI v");
    return v && sscanf(v + 10, "%d.%d.%d", major, minor, release) == 3;
}

static int version_ok;

static int totex_register(void)
{
    mca_base_component_t *c = &mca_coll_totex_component.super.collm_version;
    int major = 0, minor = 0, release = 0;
    version_ok = running_version(&major, &minor, &release) && major == OMPI_MAJOR_VERSION &&
                 minor == OMPI_MINOR_VERSION && release == OMPI_RELEASE_VERSION;
    if (!version_ok) {
        fprintf(stderr,
                "totex: mca_coll_totex.so was built for Open MPI %d.%d.%d, but this process runs Open MPI %d.%d.%d: "
                "it stays out (Open MPI's internal structures differ between versions). Rebuild totex against "
                "this Open MPI's headers (cmake -DMPI_C_COMPILER=its mpicc).\n",
                OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION, major, minor, release);
        return OMPI_ERROR;
    }
    /* the parameters: name, help line, type, level, where the value goes */
    const struct {
        const char *name, *help;
        mca_base_var_type_t type;
        mca_base_var_info_lvl_t level;
        void *storage;
    } params[] = {
        {"priority",
         "Priority of the totex coll component: above the others' (tuned 30), it serves MPI_Alltoall, MPI_Ialltoall "
         "and MPI_Alltoall_init; 0 or less: not used",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_6, &mca_coll_totex_component.priority},
        {"verbose",
         "0: silent; 1: rank 0 prints a line starting 'totex:' with the choice, once per communicator and block size "
         "(TOTEX_VERBOSE=2)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, &mca_coll_totex_component.verbose},
        {"algorithm",
         "Force one combining algorithm (direct, pairwise, bruck, dimwise, a2c, a3c, octr, ...; `totex algorithms` "
         "lists them); empty: the model's choice and timed trials (TOTEX_ALGORITHM)",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_5, &mca_coll_totex_component.algorithm},
        {"chunks", "Split every transfer into this many messages (1 .. 16); 0: the model chooses (TOTEX_CHUNKS)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_6, &mca_coll_totex_component.chunks},
        {"tune",
         "1: time the best few candidates on the communicator at the first call of a block size; 0: the model's "
         "first choice; -1: default (1) (TOTEX_TUNE)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_6, &mca_coll_totex_component.tune},
        {"check",
         "1: every call is checked across ranks (mismatched arguments give an error on every rank, not a hang); "
         "0: off; -1: default (1) (TOTEX_CHECK)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_6, &mca_coll_totex_component.check},
        {"size_classes",
         "1: a new block size of a known power-of-two class reuses the class's choice; 0: every block size is "
         "chosen anew (TOTEX_SIZE_CLASSES)",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_9, &mca_coll_totex_component.size_classes},
        {"network",
         "The network the job runs on, a totex spec or preset (ring:8*ring:8, fugaku, ...): MPI_COMM_WORLD and "
         "every communicator whose ranks form a sub-box of it are scheduled on it (TOTEX_NETWORK)",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_4, &mca_coll_totex_component.network},
        {"rankmap",
         "A file with one line per rank of MPI_COMM_WORLD, in rank order: its coordinates on coll_totex_network, one "
         "per factor (TOTEX_RANKMAP; default: rank r at node r)",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_4, &mca_coll_totex_component.rankmap},
        {"test_interval",
         "Microseconds between the program's MPI_Test calls on an MPI_Ialltoall that the nonblocking choice assumes "
         "(0 .. 1000000): a schedule whose blocks are forwarded at many dependent steps pays about half of it per "
         "step; 0: nonblocking calls run the blocking choice; -1: default (10) (TOTEX_TEST_INTERVAL)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_6, &mca_coll_totex_component.test_interval},
    };
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        if (params[i].type == MCA_BASE_VAR_TYPE_STRING)
            *(char **)params[i].storage = NULL; /* (a string parameter's default: unset) */
        (void)mca_base_component_var_register(c, params[i].name, params[i].help, params[i].type, NULL, 0, 0,
                                              params[i].level, MCA_BASE_VAR_SCOPE_READONLY, params[i].storage);
    }
    return OMPI_SUCCESS;
}

static int totex_open(void)
{
    if (!version_ok)
        return OMPI_ERROR;
    mca_coll_totex_apply_params();
    return opal_progress_register(mca_coll_totex_progress);
}

static int totex_close(void)
{
    if (version_ok)
        opal_progress_unregister(mca_coll_totex_progress);
    return OMPI_SUCCESS;
}

/* set @p name to the text of @p value (given: a parameter not at its default) */
static void put(const char *name, const char *value)
{
    if (value && *value)
        setenv(name, value, 1);
}

static void put_int(const char *name, int value, int dflt)
{
    if (value != dflt) {
        char s[32];
        snprintf(s, sizeof s, "%d", value);
        setenv(name, s, 1);
    }
}

void mca_coll_totex_apply_params(void)
{
    const mca_coll_totex_component_t *c = &mca_coll_totex_component;
    /* verbose 1 is the runtime's line per communicator and block size (TOTEX_VERBOSE=2) */
    if (c->verbose > 0)
        setenv("TOTEX_VERBOSE", "2", 1);
    put("TOTEX_ALGORITHM", c->algorithm);
    put_int("TOTEX_CHUNKS", c->chunks, 0);
    put_int("TOTEX_TUNE", c->tune, -1);
    put_int("TOTEX_CHECK", c->check, -1);
    put("TOTEX_SIZE_CLASSES", c->size_classes);
    put("TOTEX_NETWORK", c->network);
    put("TOTEX_RANKMAP", c->rankmap);
    put_int("TOTEX_TEST_INTERVAL", c->test_interval, -1);
}
