/* Drop-in MPI_Alltoall (libtotex_pmpi.so, for LD_PRELOAD): runs totex_alltoall
 * and falls back to PMPI_Alltoall where totex does not apply (intercommunicators).
 * Only MPI_Alltoall, MPI_Alltoallv (totex_alltoallv), MPI_Ialltoall (below) and MPI_Finalize (for the
 * count below) are intercepted;
 * totex's own MPI calls go to the real MPI.
 * TOTEX_VERBOSE=1: rank 0 of each communicator prints once which algorithm runs
 * or why it fell back (TOTEX_VERBOSE=2: once per block size), and rank 0 of
 * MPI_COMM_WORLD prints at MPI_Finalize how many MPI_Alltoall calls the drop-in
 * took and how many of them ran totex's schedules. TOTEX_MODEL=unit: run the
 * unit-step (store-and-forward) algorithm TOTEX_ALGORITHM (default: the
 * automatic choice) under the single-port model, as totex_alltoall_unit() does.
 * Errors go to the communicator's error handler, as MPI does; MPI_COMM_NULL goes
 * to PMPI_Alltoall, which raises MPI's error where the library does. Built against
 * one MPI (Open MPI or MPICH) and preloaded into a program of the other, it
 * says so on stderr at the first MPI_Alltoall and exits with status 1.
 *
 * MPI_Ialltoall: under MPICH, totex_ialltoall() behind a generalized request
 * that MPICH's MPI_Wait / MPI_Test drive by polling it (MPIX_Grequest_start);
 * under another MPI (Open MPI has no such request: its coll/totex component
 * serves MPI_Ialltoall instead) the MPI library's own, said once under
 * TOTEX_VERBOSE. MPI_Alltoall_init (persistent) is left to the MPI library:
 * a generalized request cannot be started again (the Open MPI component
 * serves it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/mpi.h"

static unsigned long long calls, ran, fell_back; /* this process's MPI_Alltoall calls */

/* The drop-in only works with the MPI it was built against: MPI handles differ
   between Open MPI (pointers) and MPICH (integers), and a mismatch used to end
   in a crash deep inside MPI. MPI_Get_library_version is the running
   program's (the first MPI in the process's symbol scope); it only takes a
   buffer, which is sized for either library's MPI_MAX_LIBRARY_VERSION_STRING. */
static void check_library(void)
{
#if defined(OMPI_MAJOR_VERSION)
    const char *built = "Open MPI";
#elif defined(MPICH_VERSION)
    const char *built = "MPICH";
#else
    const char *built = NULL; /* another MPI: not checked */
#endif
    static int done;
    static char running[16384];
    int len = 0;
    if (done || !built)
        return;
    done = 1;
    if (MPI_Get_library_version(running, &len) != MPI_SUCCESS || strstr(running, built))
        return;
    running[sizeof running - 1] = '\0';
    char *nl = strchr(running, '\n');
    if (nl)
        *nl = '\0';
    fprintf(stderr,
            "totex: libtotex_pmpi.so was built against %s, but this program runs on another MPI (\"%.80s\"); "
            "MPI handles differ between them, so it cannot take this program's MPI_Alltoall. Build "
            "libtotex_pmpi.so with the program's MPI (cmake -DMPI_C_COMPILER=/path/to/its/mpicc) or run without "
            "LD_PRELOAD. Stopping.\n",
            built, running);
    fflush(stdout);
    _Exit(1);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm)
{
    check_library();
    static int unit = -1; /* TOTEX_MODEL, read once per process */
    if (unit < 0) {
        static const char *const models[] = {"auto", "unit"};
        unit = totex_mpi_env_word("TOTEX_MODEL", models, 2) == 1;
    }
    totex_mpi_options opt = {.fallback = 1, .verbose = totex_mpi_verbose_level(), .entry = "MPI_Alltoall"};
    if (unit) { /* validation: a unit-step algorithm, single-port */
        opt.unit = 1;
        opt.unit_algorithm = totex_mpi_env_string("TOTEX_ALGORITHM");
        opt.unit_ports = 1;
    }
    calls++;
    if (comm == MPI_COMM_NULL) {
        /* no communicator to raise the error on: the MPI library raises it where the standard says
           (its MPI_COMM_WORLD / MPI_COMM_SELF handler), as without the drop-in */
        fell_back++;
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    }
    int rc = totex_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &opt);
    if (rc == TOTEX_MPI_FALLBACK) {
        fell_back++;
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    }
    ran += rc == MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Comm_call_errhandler(comm, rc);
    return rc;
}

/* MPI_Alltoallv: totex_alltoallv() (alltoallv.c), the MPI library's where totex does not apply */
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    check_library();
    totex_mpi_options opt = {.fallback = 1, .verbose = totex_mpi_verbose_level(), .entry = "MPI_Alltoallv"};
    if (comm == MPI_COMM_NULL)
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
    totex_mpi_depth++;
    int rc = totex_mpi_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                                 &opt);
    totex_mpi_depth--;
    if (rc == TOTEX_MPI_FALLBACK)
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
    if (rc != MPI_SUCCESS)
        MPI_Comm_call_errhandler(comm, rc);
    return rc;
}

/* MPI_Ialltoall left to the MPI library: said once per process under TOTEX_VERBOSE */
static void say_passed(const char *what, const char *why)
{
    static int said;
    int rank = 0;
    if (!said && totex_mpi_verbose_level() && PMPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 0)
        fprintf(stderr, "totex: %s goes to the MPI library: %s\n", what, why);
    said = 1;
}

#if defined(MPICH_VERSION)
/* a totex_ialltoall() behind an MPICH generalized request */
typedef struct dropin_ialltoall {
    totex_request treq;
    MPI_Request greq;
    int done, rc;
} dropin_ialltoall;

static int nb_query(void *extra, MPI_Status *status)
{
    const dropin_ialltoall *x = extra;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return x->rc;
}

static int nb_free(void *extra)
{
    dropin_ialltoall *x = extra;
    totex_request_free(&x->treq);
    free(x);
    return MPI_SUCCESS;
}

static int nb_cancel(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS; /* a collective is not cancelled */
}

/* MPICH's progress engine asks: one totex_test, the generalized request completed when the exchange is */
static int nb_poll(void *extra, MPI_Status *status)
{
    (void)status;
    dropin_ialltoall *x = extra;
    if (!x->done) {
        int flag = 0;
        x->rc = totex_test(&x->treq, &flag);
        if (flag || x->rc != MPI_SUCCESS) {
            x->done = 1;
            MPI_Grequest_complete(x->greq);
        }
    }
    return MPI_SUCCESS;
}

static int nb_wait(int count, void **states, double timeout, MPI_Status *status)
{
    (void)timeout;
    for (int i = 0; i < count; i++) {
        dropin_ialltoall *x = states[i];
        while (!x->done)
            nb_poll(x, status);
    }
    return MPI_SUCCESS;
}
#endif

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    check_library();
#if defined(MPICH_VERSION)
    int inter = 0;
    if (comm != MPI_COMM_NULL && request && PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter) {
        dropin_ialltoall *x = calloc(1, sizeof *x);
        if (!x)
            return MPI_Comm_call_errhandler(comm, MPI_ERR_NO_MEM), MPI_ERR_NO_MEM;
        int rc = totex_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &x->treq);
        if (rc == MPI_SUCCESS)
            rc = MPIX_Grequest_start(nb_query, nb_free, nb_cancel, nb_poll, nb_wait, x, &x->greq);
        if (rc != MPI_SUCCESS) {
            totex_request_free(&x->treq);
            free(x);
            MPI_Comm_call_errhandler(comm, rc);
            return rc;
        }
        *request = x->greq;
        return MPI_SUCCESS;
    }
    say_passed("MPI_Ialltoall on an intercommunicator", "totex handles intracommunicators only");
#else
    say_passed("MPI_Ialltoall", "this MPI has no generalized request that its MPI_Wait drives (MPICH's "
                                "MPIX_Grequest_start); with Open MPI load the coll/totex component instead");
#endif
    return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPI_Finalize(void)
{
    int rank = 0;
    if (totex_mpi_verbose_level() && PMPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 0)
        fprintf(stderr, "totex: MPI_Alltoall called %llu times on rank 0: %llu ran totex's schedules, %llu fell back "
                        "to the MPI library\n", calls, ran, fell_back);
    return PMPI_Finalize();
}
