/* totex_alltoall: MPI_Alltoall executed with a totex message-combining schedule
 * (see include/totex/mpi.h for the semantics, the network and rank mapping,
 * the choice of algorithm, the plan cache and the errors). This file checks
 * the arguments, lays the blocks out as bytes (in place when the datatype is
 * contiguous, else MPI_Pack / MPI_Unpack) and hands them to the executor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/mpi.h"

static int fail(int code, int rank, const char *msg)
{
    fprintf(stderr, "totex_alltoall: rank %d: %s\n", rank, msg);
    return code;
}

/* 1 if @p count elements of @p t are @p count * size(t) contiguous bytes at the buffer's start */
static int raw_layout(MPI_Datatype t, int tsize)
{
    MPI_Aint lb, ext, tlb, text;
    if (MPI_Type_get_extent(t, &lb, &ext) != MPI_SUCCESS || MPI_Type_get_true_extent(t, &tlb, &text) != MPI_SUCCESS)
        return 0;
    return lb == 0 && tlb == 0 && ext == tsize && text == tsize;
}

/* TOTEX_CHECK=0 turns the cross-rank agreement off (read once per process, at the first call) */
static int cross_check_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *s = getenv("TOTEX_CHECK");
        on = !(s && strcmp(s, "0") == 0);
    }
    return on;
}

int totex_mpi_verbose_level(void)
{
    static int level = -1; /* read once per process */
    if (level < 0) {
        const char *v = getenv("TOTEX_VERBOSE");
        level = (!v || !*v || strcmp(v, "0") == 0) ? 0 : strcmp(v, "2") == 0 ? 2 : 1;
    }
    return level;
}

/* pack the n send blocks into out (block j at j * slot) */
static int pack_blocks(const char *buf, int count, MPI_Datatype t, int n, long long slot, char *out, MPI_Comm comm)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    for (int j = 0; j < n; j++) {
        int pos = 0;
        int rc = MPI_Pack(buf + (MPI_Aint)j * count * ext, count, t, out + (size_t)j * (size_t)slot, (int)slot, &pos,
                          comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int unpack_block(const char *from, long long slot, char *recvbuf, int i, int count, MPI_Datatype t,
                        MPI_Comm comm)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    int pos = 0;
    return MPI_Unpack(from, (int)slot, &pos, recvbuf + (MPI_Aint)i * count * ext, count, t, comm);
}

int totex_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, const totex_mpi_options *opt)
{
    int rc, size = 0, rank = 0, inter = 0;
    if (comm == MPI_COMM_NULL)
        return fail(MPI_ERR_COMM, -1, "MPI_COMM_NULL communicator");
    if ((rc = MPI_Comm_test_inter(comm, &inter)) != MPI_SUCCESS)
        return rc;
    if (inter) {
        if (opt->fallback) {
            totex_mpi_state *st = NULL;
            MPI_Comm_rank(comm, &rank);
            if (opt->verbose && totex_mpi_state_get(comm, &st) == MPI_SUCCESS && !st->verbose_done) {
                st->verbose_done = 1;
                if (rank == 0)
                    fprintf(stderr, "totex: MPI_Alltoall on an intercommunicator: falling back to the MPI library's "
                                    "MPI_Alltoall (totex handles intracommunicators only)\n");
            }
            return TOTEX_MPI_FALLBACK;
        }
        return fail(MPI_ERR_COMM, -1, "intercommunicators are not supported (use an intracommunicator)");
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);

    int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place) {
        sendbuf = recvbuf;
        sendcount = recvcount;
        sendtype = recvtype;
    }
    /* local checks; the verdict is agreed on by every rank below */
    int bad = 0;
    const char *msg = NULL;
    int ssize = 0, rsize = 0, pack = 0;
    if (sendtype == MPI_DATATYPE_NULL || recvtype == MPI_DATATYPE_NULL) {
        bad = MPI_ERR_TYPE;
        msg = "MPI_DATATYPE_NULL datatype";
    } else if (sendcount < 0 || recvcount < 0) {
        bad = MPI_ERR_COUNT;
        msg = "negative count";
    } else {
        MPI_Type_size(sendtype, &ssize);
        MPI_Type_size(recvtype, &rsize);
        if ((long long)sendcount * ssize != (long long)recvcount * rsize) {
            bad = MPI_ERR_COUNT;
            msg = "sendcount * size(sendtype) differs from recvcount * size(recvtype)";
        } else if ((rc = MPI_Pack_size(sendcount, sendtype, comm, &pack)) != MPI_SUCCESS) {
            bad = MPI_ERR_TYPE;
            msg = "MPI_Pack_size failed on the send datatype";
        } else if (sendcount && ssize && (!sendbuf || !recvbuf)) {
            bad = MPI_ERR_BUFFER;
            msg = "NULL buffer with a non-zero count";
        }
    }
    long long sig = bad ? 0 : (long long)sendcount * ssize;
    if (cross_check_on()) {
        long long v[5] = {-(long long)bad, sig, -sig, bad ? 0 : pack, bad ? 0 : -(long long)pack};
        long long r[5];
        if ((rc = MPI_Allreduce(v, r, 5, MPI_LONG_LONG, MPI_MIN, comm)) != MPI_SUCCESS)
            return rc;
        if (bad)
            fail(bad, rank, msg);
        if (r[0] < 0) /* every rank returns the same code; the offending ranks printed why */
            return (int)-r[0];
        if (r[1] != -r[2] || r[3] != -r[4]) {
            char m[200];
            snprintf(m, sizeof m,
                     "message sizes differ across ranks: sendcount * size(sendtype) from %lld to %lld bytes", r[1],
                     -r[2]);
            return fail(MPI_ERR_COUNT, rank, m);
        }
    } else if (bad) {
        return fail(bad, rank, msg);
    }
    if (sig == 0)
        return MPI_SUCCESS;

    const long long slot = pack;
    char *rbuf = recvbuf;
    /* raw: the blocks are the buffer's bytes (block j at j * slot); in place the
       send blocks must be copied out before the receive buffer is written */
    int send_raw = !in_place && pack == sig && raw_layout(sendtype, ssize);
    int recv_raw = pack == sig && raw_layout(recvtype, rsize);

    totex_mpi_state *st = NULL;
    if ((rc = totex_mpi_state_get(comm, &st)) != MPI_SUCCESS)
        return rc;
    if (size == 1) {
        if (opt->verbose && !st->verbose_done) {
            st->verbose_done = 1;
            fprintf(stderr, "totex: MPI_Alltoall on 1 rank: local copy\n");
        }
        if (in_place)
            return MPI_SUCCESS;
        char *tmp = malloc((size_t)slot);
        if (!tmp)
            return MPI_ERR_NO_MEM;
        if ((rc = pack_blocks(sendbuf, sendcount, sendtype, 1, slot, tmp, comm)) == MPI_SUCCESS)
            rc = unpack_block(tmp, slot, rbuf, 0, recvcount, recvtype, comm);
        free(tmp);
        return rc;
    }
    if ((rc = totex_mpi_state_dup(st, comm)) != MPI_SUCCESS)
        return rc;

    if (opt->unit) {
        char *mine = malloc((size_t)size * (size_t)slot), *all = NULL;
        if (!mine)
            return MPI_ERR_NO_MEM;
        rc = pack_blocks(sendbuf, sendcount, sendtype, size, slot, mine, comm);
        if (rc == MPI_SUCCESS)
            rc = totex_mpi_run_unit(st->dup, size, rank, mine, slot, opt, st, &all);
        for (int i = 0; i < size && rc == MPI_SUCCESS; i++)
            rc = unpack_block(all + (size_t)i * (size_t)slot, slot, rbuf, i, recvcount, recvtype, comm);
        free(all);
        free(mine);
        return rc;
    }

    const char *send = sendbuf;
    if (!send_raw) {
        size_t need = (size_t)size * (size_t)slot;
        if (st->packed_bytes < need) {
            free(st->packed);
            st->packed_bytes = 0;
            if (!(st->packed = malloc(need)))
                return MPI_ERR_NO_MEM;
            st->packed_bytes = need;
        }
        if ((rc = pack_blocks(sendbuf, sendcount, sendtype, size, slot, st->packed, comm)) != MPI_SUCCESS)
            return rc;
        send = st->packed;
    }
    totex_mpi_plan *p = st->plans;
    while (p && p->slot != slot)
        p = p->next;
    if (!p) {
        if ((rc = totex_mpi_plan_make(st->dup, size, rank, slot, send, opt->verbose, st, &p)) != MPI_SUCCESS)
            return rc;
        p->next = st->plans;
        st->plans = p;
    }
    if ((rc = totex_mpi_exec(p, st->dup, send, recv_raw ? rbuf : NULL, recv_raw)) != MPI_SUCCESS)
        return rc;
    const char *own = send + (size_t)rank * (size_t)slot;
    if (recv_raw) {
        if (own != rbuf + (size_t)rank * (size_t)slot)
            memcpy(rbuf + (size_t)rank * (size_t)slot, own, (size_t)slot);
    } else {
        for (int i = 0; i < size && rc == MPI_SUCCESS; i++)
            rc = unpack_block(i == rank ? own : totex_mpi_final_block(p, (uint32_t)i), slot, rbuf, i, recvcount,
                              recvtype, comm);
    }
    return rc;
}

int totex_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    totex_mpi_options opt = {.verbose = totex_mpi_verbose_level()};
    return totex_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &opt);
}

int totex_alltoall_unit(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm, int ports)
{
    totex_mpi_options opt = {.verbose = totex_mpi_verbose_level(), .unit = 1, .unit_algorithm = algorithm, .unit_ports = ports};
    return totex_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &opt);
}
