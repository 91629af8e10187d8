/* The machine's network named by the user (TOTEX_NETWORK, TOTEX_RANKMAP; the
 * Open MPI component's coll_totex_network, coll_totex_rankmap): read once per
 * process (src/program/machine.c), and for each communicator the sub-box its
 * ranks span, agreed on by every rank before its duplicates are made
 * (state.c): the duplicate then numbers the ranks as the nodes of that
 * sub-box (MPI_Comm_split by node id), and the blocks of the caller's
 * buffers are packed and unpacked in that order (alltoall.c, request.c).
 * A communicator that is no sub-box, or a map that cannot be read, falls back
 * to the communicator's own network (spec.c), said once under TOTEX_VERBOSE
 * (a map that cannot be read: always, once per process). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "machine.h"

static totex_prog_machine *machine; /* NULL: none named, or not usable */
static int machine_read;
static char machine_why[640];       /* why a named network is not used (empty: none was named) */
static unsigned long long machine_hash; /* of the network's name and the map's text: equal on every rank */

static unsigned long long hash_bytes(unsigned long long h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

/* the map file's text (NULL with the reason in machine_why); at most 64 MiB */
static char *read_map(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(machine_why, sizeof machine_why, "TOTEX_RANKMAP=%.200s cannot be opened", path);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap + 1);
    while (text) {
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (len < cap)
            break;
        if (cap >= (size_t)64 << 20) {
            snprintf(machine_why, sizeof machine_why, "TOTEX_RANKMAP=%.200s is larger than 64 MiB", path);
            free(text);
            text = NULL;
            break;
        }
        char *t = realloc(text, cap * 2 + 1);
        if (!t) {
            free(text);
            text = NULL;
            break;
        }
        text = t;
        cap *= 2;
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    return text;
}

/* read TOTEX_NETWORK and TOTEX_RANKMAP once per process */
static void read_machine(void)
{
    if (machine_read)
        return;
    machine_read = 1;
    const char *spec = totex_mpi_env_string("TOTEX_NETWORK"), *map = totex_mpi_env_string("TOTEX_RANKMAP");
    machine_hash = hash_bytes(14695981039346656037ULL, spec ? spec : "", spec ? strlen(spec) : 0);
    if (!spec) {
        if (map)
            snprintf(machine_why, sizeof machine_why,
                     "TOTEX_RANKMAP is set but TOTEX_NETWORK is not (name the network the map places the ranks on)");
        return;
    }
    int world = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    char *text = map ? read_map(map) : NULL;
    if (map && !text)
        return;
    if (text)
        machine_hash = hash_bytes(machine_hash, text, strlen(text));
    totex_error err = {{0}};
    if (totex_prog_machine_make(spec, text, map ? map : "", (uint32_t)world, &machine, &err) != TOTEX_OK)
        snprintf(machine_why, sizeof machine_why, "TOTEX_NETWORK=%.100s%s%.100s: %.400s", spec,
                 map ? ", TOTEX_RANKMAP=" : "", map ? map : "", err.msg);
    free(text);
}

int totex_mpi_named_network(totex_mpi_state *st, MPI_Comm comm, int size, int rank)
{
    read_machine();
    int rc, world_rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    /* the reason a named network is not used, said by world rank 0 once per process */
    static int said;
    if (machine_why[0] && !said && world_rank == 0)
        fprintf(stderr, "totex: the machine's network is not used: %s; every communicator keeps its own network\n",
                machine_why);
    said = 1;
    uint32_t *world = NULL, *node = NULL;
    char spec[512] = "", why[256] = "";
    int applies = 0;
    if (machine && size > 1) {
        MPI_Group g, wg;
        world = malloc(sizeof *world * (size_t)size);
        node = malloc(sizeof *node * (size_t)size);
        int *in = malloc(sizeof(int) * (size_t)size), *out = malloc(sizeof(int) * (size_t)size);
        rc = world && node && in && out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
        for (int i = 0; rc == MPI_SUCCESS && i < size; i++)
            in[i] = i;
        if (rc == MPI_SUCCESS && (rc = MPI_Comm_group(comm, &g)) == MPI_SUCCESS) {
            if ((rc = MPI_Comm_group(MPI_COMM_WORLD, &wg)) == MPI_SUCCESS) {
                rc = MPI_Group_translate_ranks(g, size, in, wg, out);
                MPI_Group_free(&wg);
            }
            MPI_Group_free(&g);
        }
        for (int i = 0; rc == MPI_SUCCESS && i < size; i++) {
            if (out[i] == MPI_UNDEFINED || out[i] < 0) {
                snprintf(why, sizeof why, "its ranks are not all in MPI_COMM_WORLD");
                break;
            }
            world[i] = (uint32_t)out[i];
        }
        free(in);
        free(out);
        if (rc == MPI_SUCCESS && !why[0] &&
            totex_prog_machine_box(machine, world, (uint32_t)size, &applies, spec, sizeof spec, node, why,
                                   sizeof why) != TOTEX_OK)
            rc = MPI_ERR_NO_MEM;
        if (rc != MPI_SUCCESS) {
            free(world);
            free(node);
            return rc;
        }
    }
    /* every rank the same network, map and verdict: else an error on every rank */
    unsigned long long h = hash_bytes(machine_hash, &applies, sizeof applies);
    h = hash_bytes(h, spec, strlen(spec));
    for (int i = 0; applies && i < size; i++)
        h = hash_bytes(h, &node[i], sizeof node[i]);
    unsigned long long mm[2] = {h, ~h}, agreed[2];
    if ((rc = MPI_Allreduce(mm, agreed, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm)) != MPI_SUCCESS) {
        free(world);
        free(node);
        return rc;
    }
    if (agreed[0] != h || agreed[1] != ~h) {
        fprintf(stderr, "totex_alltoall: rank %d: TOTEX_NETWORK or TOTEX_RANKMAP (or the file it names) differ across "
                        "ranks: set them alike on every rank\n", rank);
        free(world);
        free(node);
        return MPI_ERR_OTHER;
    }
    if (applies) {
        st->named_spec = strdup(spec);
        st->node_of = malloc(sizeof(int) * (size_t)size * 2);
        if (!st->named_spec || !st->node_of) {
            free(st->named_spec);
            free(st->node_of);
            st->named_spec = NULL;
            st->node_of = NULL;
            rc = MPI_ERR_NO_MEM;
        } else {
            st->rank_of = st->node_of + size;
            for (int i = 0; i < size; i++) {
                st->node_of[i] = (int)node[i];
                st->rank_of[node[i]] = i;
            }
        }
    } else if (machine && size > 1 && totex_mpi_verbose_level() && rank == 0) {
        fprintf(stderr, "totex: this communicator of %d ranks is not a sub-box of the machine's network (%s): it "
                        "keeps its own network\n", size, why);
    }
    free(world);
    free(node);
    return rc;
}
