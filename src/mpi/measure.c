/* The costs of a communicator (totex_mpi_costs, collective, once per state):
 * t_s, t_c, the link time t_l under concurrent flows, their chunk-sized forms,
 * the padding and split ladders, measured by ping-pong between ranks 0 and 1
 * unless TOTEX_TS / TOTEX_TC / TOTEX_TL set them, and broadcast. The choice
 * model (src/program/choice.h) ranks candidates with them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PP_ROUNDS 20
#define PP_SMALL 8
#define PP_LARGE 65536
#define PP_FLOWS 4 /* concurrent flows of the link measurement */
#define PP_LADDER 5 /* message sizes 256, 512, .. 4096 (TOTEX_PROG_PAD_MAX) bytes timed for padding */
#define PP_LADDER_MIN 256

static double env_seconds(const char *name, double dflt)
{
    double v = dflt;
    totex_mpi_env_seconds(name, &v);
    return v;
}


/* time of PP_FLOWS concurrent @p bytes-byte messages from rank 0 to rank 1 and
   PP_SMALL bytes back (rank 0 reports it); buf holds PP_FLOWS * bytes */
static int flows(MPI_Comm comm, int rank, char *buf, int bytes, double *rtt)
{
    int rc = MPI_SUCCESS;
    double t0 = 0;
    MPI_Request r[PP_FLOWS];
    for (int k = -1; k < PP_ROUNDS / 4 && rc == MPI_SUCCESS; k++) { /* 1 warm-up round */
        if (k == 0)
            t0 = MPI_Wtime();
        for (int f = 0; f < PP_FLOWS; f++)
            r[f] = MPI_REQUEST_NULL;
        for (int f = 0; f < PP_FLOWS && rc == MPI_SUCCESS; f++)
            rc = rank == 0 ? MPI_Isend(buf + (size_t)f * bytes, bytes, MPI_BYTE, 1, TOTEX_MPI_PP_TAG, comm, &r[f])
                           : MPI_Irecv(buf + (size_t)f * bytes, bytes, MPI_BYTE, 0, TOTEX_MPI_PP_TAG, comm, &r[f]);
        int wrc = MPI_Waitall(PP_FLOWS, r, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
        if (rc == MPI_SUCCESS)
            rc = rank == 0 ? MPI_Recv(buf, PP_SMALL, MPI_BYTE, 1, TOTEX_MPI_PP_TAG, comm, MPI_STATUS_IGNORE)
                           : MPI_Send(buf, PP_SMALL, MPI_BYTE, 0, TOTEX_MPI_PP_TAG, comm);
    }
    *rtt = (MPI_Wtime() - t0) / (PP_ROUNDS / 4);
    return rc;
}

/* one round trip of @p bytes between ranks 0 and 1, its time in *rtt */
static int pingpong_once(MPI_Comm comm, int rank, char *buf, int bytes, double *rtt)
{
    int rc, peer = 1 - rank;
    double t0 = MPI_Wtime();
    if (rank == 0) {
        rc = MPI_Send(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm, MPI_STATUS_IGNORE);
    } else {
        rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm);
    }
    *rtt = MPI_Wtime() - t0;
    return rc;
}

/* time of one round trip of @p bytes between ranks 0 and 1, the mean of PP_ROUNDS after 2 warm-up round
   trips (rank 0 reports it) */
static int pingpong(MPI_Comm comm, int rank, char *buf, int bytes, double *rtt)
{
    int rc = MPI_SUCCESS;
    double sum = 0, one = 0;
    for (int r = -2; r < PP_ROUNDS && rc == MPI_SUCCESS; r++)
        if ((rc = pingpong_once(comm, rank, buf, bytes, &one)) == MPI_SUCCESS && r >= 0)
            sum += one;
    *rtt = sum / PP_ROUNDS;
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median one-way time of PP_ROUNDS round trips of @p bytes between ranks 0 and 1 (rank 0 reports it):
   robust to the interruptions of a shared machine, which only ever add time */
static int pingpong_median(MPI_Comm comm, int rank, char *buf, int bytes, double *oneway)
{
    double t[PP_ROUNDS];
    int rc = MPI_SUCCESS;
    for (int r = -2; r < PP_ROUNDS && rc == MPI_SUCCESS; r++) { /* 2 warm-up round trips */
        double rtt = 0;
        rc = pingpong_once(comm, rank, buf, bytes, &rtt);
        if (r >= 0)
            t[r] = rtt;
    }
    qsort(t, PP_ROUNDS, sizeof t[0], cmp_double);
    *oneway = (t[PP_ROUNDS / 2 - 1] + t[PP_ROUNDS / 2]) / 4;
    return rc;
}

/* t_s, t_c and t_l for comm (the private duplicate): TOTEX_TS / TOTEX_TC /
   TOTEX_TL as read on rank 0, else measured once between ranks 0 and 1: a
   ping-pong (one-way time of 8 bytes gives t_s, the slope to 64 KiB gives t_c,
   the time per byte of one flow), then PP_FLOWS concurrent 64 KiB messages one
   way and 8 bytes back (their time less two 8-byte one-way times, over their
   bytes, gives t_l, the time per byte of the link under several flows; at most
   t_c); both again with TOTEX_PROG_COST_CHUNK-byte messages (per-byte times of
   chunk-sized messages: MPI libraries and networks treat sizes differently);
   broadcast, cached in st. */
int totex_mpi_costs(MPI_Comm comm, int size, int rank, totex_mpi_state *st)
{
    if (st->costs_known)
        return MPI_SUCCESS;
    int rc;
    const char *es = totex_mpi_env_string("TOTEX_TS"), *ec = totex_mpi_env_string("TOTEX_TC");
    int need = 0;
    if (rank == 0)
        need = (!es || !*es || !ec || !*ec) && size >= 2; /* TOTEX_TL alone does not need a measurement */
    if ((rc = MPI_Bcast(&need, 1, MPI_INT, 0, comm)) != MPI_SUCCESS)
        return rc;
    double t_small = 0, t_large = 0, t_flows = 0, t_chunk = 0, t_chunk_flows = 0, t_ladder[PP_LADDER + 1] = {0};
    int prc = MPI_SUCCESS;
    if (need && rank < 2) {
        char *buf = calloc(PP_FLOWS, PP_LARGE);
        if (!buf) {
            prc = MPI_ERR_NO_MEM; /* both ranks may fail here: then neither sends */
        } else {
            double rtt = 0;
            prc = pingpong(comm, rank, buf, PP_SMALL, &rtt);
            t_small = rtt / 2;
            if (prc == MPI_SUCCESS)
                prc = pingpong(comm, rank, buf, PP_LARGE, &rtt);
            t_large = rtt / 2;
            if (prc == MPI_SUCCESS)
                prc = flows(comm, rank, buf, PP_LARGE, &t_flows);
            if (prc == MPI_SUCCESS)
                prc = pingpong(comm, rank, buf, TOTEX_PROG_COST_CHUNK, &rtt);
            t_chunk = rtt / 2;
            if (prc == MPI_SUCCESS)
                prc = flows(comm, rank, buf, TOTEX_PROG_COST_CHUNK, &t_chunk_flows);
            /* median one-way times of 256 .. 4096 bytes and, last, of 8 bytes again, to compare with */
            for (int k = 0; k <= PP_LADDER && prc == MPI_SUCCESS; k++)
                prc = pingpong_median(comm, rank, buf, k < PP_LADDER ? PP_LADDER_MIN << k : PP_SMALL, &t_ladder[k]);
            free(buf);
        }
    }
    /* {t_s, t_c, t_s measured, t_c measured, error, t_l, t_l measured, t_c and t_l at TOTEX_PROG_COST_CHUNK,
        pad, t_pad, pad measured, pad forced, split bytes, t_split, one-way t_4k, t_8k, t_64k} */
    double v[18] = {0};
    if (rank == 0) {
        totex_comb_cost def;
        totex_comb_cost_default(&def);
        double ts = def.t_s, tc = def.t_c;
        if (need && prc == MPI_SUCCESS) {
            tc = (t_large - t_small) / (double)(PP_LARGE - PP_SMALL);
            if (!(tc > 0))
                tc = t_large > 0 ? t_large / PP_LARGE : def.t_c;
            ts = t_small - PP_SMALL * tc;
            if (!(ts > 0))
                ts = t_small > 0 ? t_small : def.t_s;
        }
        v[0] = env_seconds("TOTEX_TS", ts);
        v[1] = env_seconds("TOTEX_TC", tc);
        v[2] = need && prc == MPI_SUCCESS && v[0] == ts;
        v[3] = need && prc == MPI_SUCCESS && v[1] == tc;
        v[4] = prc;
        double tl = v[1]; /* with t_c set and no measurement: one flow fills a link */
        if (need && prc == MPI_SUCCESS) {
            tl = (t_flows - 2 * t_small) / ((double)PP_FLOWS * PP_LARGE);
            if (!(tl > 0) || tl > v[1])
                tl = v[1];
        }
        v[5] = env_seconds("TOTEX_TL", tl);
        v[6] = need && prc == MPI_SUCCESS && v[5] == tl;
        /* the same two per-byte times for chunk-sized messages (only when measured and not overridden) */
        v[7] = v[1];
        v[8] = v[5];
        if (v[3] && v[6]) {
            double c8 = (t_chunk - t_small) / (double)(TOTEX_PROG_COST_CHUNK - PP_SMALL);
            double l8 = (t_chunk_flows - 2 * t_small) / ((double)PP_FLOWS * TOTEX_PROG_COST_CHUNK);
            v[7] = c8 > 0 ? c8 : v[1];
            v[8] = l8 > 0 && l8 <= v[7] ? l8 : v[7];
        }
        /* padding: the size of 256 .. 4096 bytes whose message arrived soonest (medians), if at least 2%
           sooner than an 8-byte one (a network or MPI library whose small-message latency drops at some
           size, as SMPI's calibrated factors have it from 1426 bytes on: 3.4% sooner at 2048 bytes over
           one link, more over several); a larger message never arrives sooner on a network whose cost
           grows with the size, and then nothing is padded */
        if (need && prc == MPI_SUCCESS) {
            int best = -1;
            for (int k = 0; k < PP_LADDER; k++)
                if (t_ladder[k] > 0 && t_ladder[k] < 0.98 * t_ladder[PP_LADDER] &&
                    (best < 0 || t_ladder[k] < t_ladder[best]))
                    best = k;
            if (best >= 0) {
                v[9] = PP_LADDER_MIN << best;
                v[10] = t_ladder[best];
                v[11] = 1;
            }
        }
        /* splitting: the ladder size whose message moved the most bytes per second, and the one-way times
           a longer message is compared with (choice.c totex_prog_split_chunks) */
        if (need && prc == MPI_SUCCESS && t_chunk > 0 && t_large > 0 && t_ladder[PP_LADDER - 1] > 0) {
            int best = -1;
            for (int k = 0; k < PP_LADDER; k++)
                if (t_ladder[k] > 0 && (best < 0 || t_ladder[k] / (double)(PP_LADDER_MIN << k) <
                                                        t_ladder[best] / (double)(PP_LADDER_MIN << best)))
                    best = k;
            if (best >= 0) {
                v[13] = PP_LADDER_MIN << best;
                v[14] = t_ladder[best];
                v[15] = t_ladder[PP_LADDER - 1];
                v[16] = t_chunk;
                v[17] = t_large;
            }
        }
        long long pad = -1;
        if (totex_mpi_env_int("TOTEX_PAD", 0, TOTEX_PROG_PAD_MAX, &pad)) { /* forced (0: never pad) */
            int k = 0;
            while (k + 1 < PP_LADDER && ((long)PP_LADDER_MIN << (k + 1)) <= pad)
                k++;
            v[9] = (double)pad;
            v[10] = need && prc == MPI_SUCCESS && pad >= PP_LADDER_MIN ? t_ladder[k] : v[0] + (double)pad * v[1];
            v[11] = 0;
            v[12] = 1;
        }
    }
    if ((rc = MPI_Bcast(v, 18, MPI_DOUBLE, 0, comm)) != MPI_SUCCESS)
        return rc;
    if (v[4] != 0)
        return (int)v[4];
    st->t_s = v[0];
    st->t_c = v[1];
    st->ts_measured = v[2] != 0;
    st->tc_measured = v[3] != 0;
    st->t_l = v[5];
    st->tl_measured = v[6] != 0;
    st->t_c_chunk = v[7];
    st->t_l_chunk = v[8];
    st->pad = (int)v[9];
    st->t_pad = v[10];
    st->pad_measured = v[11] != 0;
    st->pad_forced = v[12] != 0;
    st->split = (int)v[13];
    st->t_split = v[14];
    st->t_4k = v[15];
    st->t_8k = v[16];
    st->t_64k = v[17];
    st->costs_known = 1;
    return MPI_SUCCESS;
}

void totex_mpi_cost_words(const totex_mpi_state *st, char *out, size_t cap)
{
    snprintf(out, cap, "t_s %.3g s %s, t_c %.3g s/byte %s, t_l %.3g s/byte %s", st->t_s,
             st->ts_measured ? "measured" : "set", st->t_c, st->tc_measured ? "measured" : "set", st->t_l,
             st->tl_measured ? "measured" : "set");
    if (st->t_c_chunk != st->t_c || st->t_l_chunk != st->t_l) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "; at %d B: t_c %.3g, t_l %.3g s/byte", TOTEX_PROG_COST_CHUNK, st->t_c_chunk,
                 st->t_l_chunk);
    }
    if (st->pad) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "; a %d-byte message %.3g s %s", st->pad, st->t_pad,
                 st->pad_forced ? "(padding set by TOTEX_PAD)" : "(sooner than 8 bytes: short messages may be padded)");
    }
    if (st->split) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "; one way: %d B %.3g s (the most bytes per second of 256 .. 4096 B), 4, 8, "
                 "64 KiB %.3g, %.3g, %.3g s", st->split, st->t_split, st->t_4k, st->t_8k, st->t_64k);
    }
}
