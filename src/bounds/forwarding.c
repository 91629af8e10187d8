/*
 * The single-port forwarding bound: node weights that make
 * every message pay for the nodes it must be sent from and received at.
 *
 * Model:   single-port (000 Section 1): in one step a node sends at most one
 *          message and receives at most one.
 * Bound:   give every node v a weight w_v >= 0, W = sum_v w_v, and let a hop
 *          u -> v cost w_u + w_v. The hops of one step cost at most 2W (each
 *          node is the sender of at most one and the receiver of at most one).
 *          Message (s, d) travels on some path, which costs at least D_w(s, d),
 *          the cheapest path from s to d under these hop costs. Hence
 *            T >= sum over ordered pairs (s, d) of D_w(s, d) / (2 W).
 *          Uniform weights give the average-status bound (000 eq. (3)); the
 *          band bound (band.c) counts sends only, with weights 1 on the band.
 *          This is the dual of the linear program "route every message
 *          (fractionally, on any paths) so that the most loaded node's sends +
 *          receives, halved, is smallest" (LP duality: the best weights give
 *          exactly that minimum); tests/test_forwarding_bound.c solves that LP
 *          with GLPK on small meshes and checks the weights found here reach it.
 * k-port:  (001 Section 7, k >= 2) node v sends at most c_v = min(k, deg v)
 *          messages per step and receives at most c_v, so a step's hops cost
 *          at most 2 sum_v c_v w_v and T >= sum D_w(s, d) / (2 sum_v c_v w_v)
 *          (totex_bound_forwarding_ports). Uniform weights give the k-port
 *          average-status bound (bounds.c); on a mesh the middle nodes must
 *          send and receive more than the average: mesh:3x3 k:2 9 steps (the
 *          exact optimum; average status 8), mesh:4x4 k:2 22 (optimum 22; 20).
 * Search:  exponentiated supergradient ascent: route every message on the
 *          cheapest paths under the current weights (Dijkstra from every
 *          source, ties split evenly over the cheapest paths by path counts as
 *          in Brandes' betweenness), take each node's (sends + receives) / 2 as
 *          the supergradient, and set w_v *= exp(eta_r (load_v / (f c_v) - 1)),
 *          eta_r = eta_0 / sqrt(r + 1), eta_0 = min(3, 8 / sqrt(n)); the best
 *          weights seen are kept. Weights stay symmetric under the reflections
 *          of path factors and constant along ring, complete and K2 factors
 *          (automorphisms: the bound is concave in w, so a symmetric optimum
 *          exists), so one source per orbit is searched, counted with the
 *          orbit's size. The best weights are rounded to integers (largest
 *          2^20) and the bound is evaluated exactly on them: the reported
 *          value depends on those integers only, never on the search's doubles.
 *          Measured against the LP optimum (GLPK, in the test): 3x3 18 = 18,
 *          3x4 27.4997 / 27.5, 4x5 60.720 / 60.75.
 * Witness: the integer weights (totex_bound_forwarding_weights), their profile
 *          along the dimension where they vary most, and X = sum D_w, 2W.
 * Applies: single-port networks with a path (>= 3 nodes) or file-graph factor
 *          (on vertex-transitive networks uniform weights are optimal and the
 *          bound is average status), 3 <= n <= 1024 nodes, but not a path
 *          alone (the relay bound is its optimum).
 * Cost:    R rounds x (n / orbit size) Dijkstra runs: O(R n |E| log n / orbit);
 *          R = 400 up to 64 nodes, 120 up to 256, 40 up to 512, 20 above.
 *          Measured: touchstone-delta (512 nodes) 0.3 s, 8611 steps (band
 *          8338, average status 8176); mesh:32x32 about 1 s. The last result
 *          is remembered per thread (a plan computes its bounds twice).
 * Source:  beyond the papers: 000 Section 3's counting (eq. (3)) with weighted
 *          nodes, and receives as well as sends counted (000 Section 1's model).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_impl.h"
#include "common/error.h"

#define FW_MAX_NODES 1024u
#define FW_SCALE 1048576.0 /* 2^20: the largest integer weight */

typedef struct fw {
    uint32_t n, k;
    uint32_t *off, *adj; /* CSR adjacency */
    double *dist;
    uint32_t *parent, *order, *heap, *pos;
    double *sigma, *delta; /* path counts, dependencies */
    uint32_t *mult; /* sources: the size of the orbit of a representative, 0 for the others */
} fw;

static void fw_free(fw *F)
{
    free(F->off);
    free(F->adj);
    free(F->dist);
    free(F->parent);
    free(F->order);
    free(F->heap);
    free(F->pos);
    free(F->sigma);
    free(F->mult);
    free(F->delta);
}

static int fw_setup(fw *F, const totex_network *net)
{
    uint32_t nb[2 * TOTEX_MAX_DIMS * 4];
    memset(F, 0, sizeof *F);
    F->n = totex_network_nodes(net);
    F->k = totex_network_dims(net);
    size_t edges = 0;
    F->off = malloc(sizeof *F->off * (F->n + 1));
    if (!F->off)
        return 0;
    for (uint32_t v = 0; v < F->n; v++) {
        F->off[v] = (uint32_t)edges;
        edges += totex_network_degree(net, v);
    }
    F->off[F->n] = (uint32_t)edges;
    F->adj = malloc(sizeof *F->adj * (edges ? edges : 1));
    F->dist = malloc(sizeof *F->dist * F->n);
    F->parent = malloc(sizeof *F->parent * F->n);
    F->order = malloc(sizeof *F->order * F->n);
    F->heap = malloc(sizeof *F->heap * F->n);
    F->pos = malloc(sizeof *F->pos * F->n);
    F->sigma = malloc(sizeof *F->sigma * F->n);
    F->mult = malloc(sizeof *F->mult * F->n);
    F->delta = malloc(sizeof *F->delta * F->n);
    if (!F->adj || !F->dist || !F->parent || !F->order || !F->heap || !F->pos || !F->sigma || !F->delta || !F->mult)
        return 0;
    /*
     * Weights symmetric under the automorphisms symmetrize() averages over make
     * cheapest-path sums equal on an orbit of sources: one representative per
     * orbit (path coordinates <= their mirror, ring/complete/K2 coordinate 0),
     * counted with the orbit's size.
     */
    for (uint32_t v = 0; v < F->n; v++) {
        uint32_t mult = 1;
        for (uint32_t i = 0; i < F->k && mult; i++) {
            const totex_factor *f = totex_network_factor(net, i);
            const uint32_t m = totex_factor_nodes(f), x = totex_network_coord(net, v, i);
            switch (totex_factor_get_kind(f)) {
            case TOTEX_FACTOR_PATH: mult = x > m - 1 - x ? 0 : x < m - 1 - x ? 2 * mult : mult; break;
            case TOTEX_FACTOR_GRAPH: break;
            default: mult = x ? 0 : mult * m; break;
            }
        }
        F->mult[v] = mult;
    }
    for (uint32_t v = 0; v < F->n; v++) {
        uint32_t deg = totex_network_degree(net, v);
        if (deg > sizeof nb / sizeof nb[0]) {
            uint32_t *big = malloc(sizeof *big * deg);
            if (!big)
                return 0;
            totex_network_neighbors(net, v, big);
            memcpy(F->adj + F->off[v], big, sizeof *big * deg);
            free(big);
        } else {
            totex_network_neighbors(net, v, nb);
            memcpy(F->adj + F->off[v], nb, sizeof *nb * deg);
        }
    }
    return 1;
}

/* binary heap on F->dist, keyed by node; pos[v] = index in heap or UINT32_MAX */
static void heap_up(fw *F, uint32_t i)
{
    uint32_t v = F->heap[i];
    while (i) {
        uint32_t p = (i - 1) / 2, u = F->heap[p];
        if (F->dist[u] <= F->dist[v])
            break;
        F->heap[i] = u;
        F->pos[u] = i;
        i = p;
    }
    F->heap[i] = v;
    F->pos[v] = i;
}

static void heap_down(fw *F, uint32_t i, uint32_t len)
{
    uint32_t v = F->heap[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= len)
            break;
        if (c + 1 < len && F->dist[F->heap[c + 1]] < F->dist[F->heap[c]])
            c++;
        if (F->dist[F->heap[c]] >= F->dist[v])
            break;
        F->heap[i] = F->heap[c];
        F->pos[F->heap[i]] = i;
        i = c;
    }
    F->heap[i] = v;
    F->pos[v] = i;
}

/*
 * Cheapest paths from @p s: entering node v costs c[v] (= 2 w_v; the hop
 * u -> v costs w_u + w_v, so a path s..d costs w_s - w_d + sum of entries).
 * Fills dist (entry sums), parent and order (settling order).
 */
static void dijkstra(fw *F, const double *c, uint32_t s)
{
    const uint32_t n = F->n;
    uint32_t len = 0, settled = 0;
    for (uint32_t v = 0; v < n; v++) {
        F->dist[v] = INFINITY;
        F->pos[v] = UINT32_MAX;
    }
    F->dist[s] = 0;
    F->parent[s] = UINT32_MAX;
    F->heap[len] = s;
    F->pos[s] = len++;
    while (len) {
        uint32_t v = F->heap[0];
        F->pos[v] = UINT32_MAX - 1; /* settled */
        F->order[settled++] = v;
        F->heap[0] = F->heap[--len];
        if (len)
            heap_down(F, 0, len);
        for (uint32_t e = F->off[v]; e < F->off[v + 1]; e++) {
            uint32_t u = F->adj[e];
            double nd = F->dist[v] + c[u];
            if (F->pos[u] == UINT32_MAX - 1 || nd >= F->dist[u])
                continue;
            F->dist[u] = nd;
            F->parent[u] = v;
            if (F->pos[u] == UINT32_MAX) {
                F->heap[len] = u;
                F->pos[u] = len++;
            }
            heap_up(F, F->pos[u]);
        }
    }
}

/*
 * One round: cheapest paths from every source under weights @p w; adds each
 * node's sends + receives (halved) to @p load and returns sum D_w(s, d).
 * Ties are split evenly over the cheapest paths (path counts, as in Brandes'
 * betweenness), so that symmetric weights get a symmetric routing.
 */
static double fw_round(fw *F, const double *w, double *c, double *load)
{
    const uint32_t n = F->n;
    double total = 0;
    for (uint32_t v = 0; v < n; v++)
        c[v] = 2 * w[v];
    for (uint32_t s = 0; s < n; s++) {
        const double mult = F->mult[s];
        if (!F->mult[s])
            continue;
        dijkstra(F, c, s);
        for (uint32_t v = 0; v < n; v++)
            total += mult * (w[s] - w[v] + F->dist[v]);
        /* sigma: number of cheapest paths; delta: messages passing beyond v (Brandes) */
        double *sigma = F->sigma, *delta = F->delta;
        sigma[s] = 1;
        for (uint32_t i = 1; i < n; i++) {
            uint32_t v = F->order[i];
            const double tol = 1e-12 * F->dist[v];
            sigma[v] = 0;
            for (uint32_t e = F->off[v]; e < F->off[v + 1]; e++) {
                uint32_t u = F->adj[e];
                if (fabs(F->dist[u] + c[v] - F->dist[v]) <= tol)
                    sigma[v] += sigma[u];
            }
        }
        for (uint32_t v = 0; v < n; v++)
            delta[v] = 0;
        for (uint32_t i = n; i-- > 1;) {
            uint32_t v = F->order[i];
            const double tol = 1e-12 * F->dist[v], share = (1.0 + delta[v]) / sigma[v];
            for (uint32_t e = F->off[v]; e < F->off[v + 1]; e++) {
                uint32_t u = F->adj[e];
                if (fabs(F->dist[u] + c[v] - F->dist[v]) <= tol)
                    delta[u] += sigma[u] * share;
            }
            /* v != s receives 1 + delta (its own and those beyond) and sends delta */
            load[v] += mult * (delta[v] + 0.5);
        }
        load[s] += mult * 0.5 * (double)(n - 1);
    }
    return total;
}

/* Exact sum over ordered pairs of D_w(s, d) for integer weights (64-bit; Dijkstra in integers). */
static uint64_t fw_exact(fw *F, const uint64_t *w, double *c)
{
    const uint32_t n = F->n;
    uint64_t total = 0;
    /* doubles hold these integers exactly (sums below 2^53), so the double Dijkstra is exact */
    for (uint32_t v = 0; v < n; v++)
        c[v] = 2.0 * (double)w[v];
    for (uint32_t s = 0; s < n; s++) {
        uint64_t part = 0;
        if (!F->mult[s])
            continue;
        dijkstra(F, c, s);
        for (uint32_t v = 0; v < n; v++)
            part += w[s] + (uint64_t)F->dist[v] - w[v];
        total += part * F->mult[s];
    }
    return total;
}

/* Average @p y over the reflections of path factors and make it constant along ring/complete/K2 factors. */
static void symmetrize(const totex_network *net, double *y, double *tmp)
{
    const uint32_t n = totex_network_nodes(net), k = totex_network_dims(net);
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const uint32_t m = totex_factor_nodes(f), st = totex_network_stride(net, i);
        const totex_factor_kind kind = totex_factor_get_kind(f);
        if (kind == TOTEX_FACTOR_GRAPH)
            continue;
        for (uint32_t v = 0; v < n; v++) {
            uint32_t c = totex_network_coord(net, v, i);
            uint32_t base = v - c * st;
            if (kind == TOTEX_FACTOR_PATH) {
                tmp[v] = 0.5 * (y[v] + y[base + (m - 1 - c) * st]);
            } else {
                double s = 0;
                for (uint32_t x = 0; x < m; x++)
                    s += y[base + x * st];
                tmp[v] = s / m;
            }
        }
        memcpy(y, tmp, sizeof *y * n);
    }
}

int totex_bound_forwarding_applies(const totex_network *net)
{
    const uint32_t n = totex_network_nodes(net);
    int varied = 0;
    if (totex_network_dims(net) == 1 && totex_factor_get_kind(totex_network_factor(net, 0)) == TOTEX_FACTOR_PATH)
        return 0; /* a linear array alone: the relay bound (relay.c) is already its optimum */
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        totex_factor_kind kind = totex_factor_get_kind(totex_network_factor(net, i));
        varied |= kind == TOTEX_FACTOR_GRAPH || (kind == TOTEX_FACTOR_PATH && totex_factor_nodes(totex_network_factor(net, i)) >= 3);
    }
    return varied && n >= 3 && n <= FW_MAX_NODES;
}

/* The last bound computed in this thread (spec and bound), so that a plan computing its bounds twice searches once. */
static _Thread_local struct {
    char spec[256];
    totex_ports ports;
    totex_bound bound;
} memo;

totex_status totex_bound_forwarding_weights(const totex_network *net, uint64_t *weights, totex_bound *out,
                                            totex_error *err)
{
    return totex_bound_forwarding_ports(net, TOTEX_PORTS_SINGLE, weights, out, err);
}

totex_status totex_bound_forwarding_ports(const totex_network *net, totex_ports ports, uint64_t *weights,
                                          totex_bound *out, totex_error *err)
{
    fw F;
    const uint32_t n = net ? totex_network_nodes(net) : 0;
    double *y = NULL, *best = NULL, *load = NULL, *c = NULL, *tmp = NULL;
    uint64_t *wi = NULL, *cap = NULL;
    const uint64_t kp = totex_ports_k(ports);
    totex_status st = TOTEX_OK;
    if (!net || !out)
        return totex_fail(err, TOTEX_EINVAL, "totex_bound_forwarding_weights: network and output bound are required");
    memset(out, 0, sizeof *out);
    out->kind = TOTEX_BOUND_FORWARDING;
    if (!totex_bound_forwarding_applies(net))
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "the forwarding bound needs a path (>= 3 nodes) or graph factor and 3..%u nodes; %s has %" PRIu32
                          " nodes", FW_MAX_NODES, totex_network_spec(net), n);
    if (ports == TOTEX_PORTS_MULTI || ports > TOTEX_PORTS_MAX_K)
        return totex_fail(err, TOTEX_EINVAL,
                          "the forwarding bound is for single-port and k-port (a node's sends per step are limited); "
                          "multiport has the cut bound");
    if (!weights && strlen(totex_network_spec(net)) < sizeof memo.spec && memo.ports == ports &&
        !strcmp(memo.spec, totex_network_spec(net))) {
        *out = memo.bound;
        return TOTEX_OK;
    }
    if (!fw_setup(&F, net)) {
        fw_free(&F);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory for the forwarding bound of %s", totex_network_spec(net));
    }
    y = malloc(sizeof *y * n);
    cap = malloc(sizeof *cap * n);
    best = malloc(sizeof *best * n);
    load = calloc(n, sizeof *load);
    c = malloc(sizeof *c * n);
    tmp = malloc(sizeof *tmp * n);
    wi = malloc(sizeof *wi * n);
    if (!y || !cap || !best || !load || !c || !tmp || !wi) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory for the forwarding bound of %s", totex_network_spec(net));
        goto done;
    }
    /* rounds: fewer on large networks (each costs n Dijkstra runs); first step eta0 (tuned on 3x3 .. 16x32) */
    const uint32_t rounds = n <= 64 ? 400 : n <= 256 ? 120 : n <= 512 ? 40 : 20;
    const double eta0 = fmin(3.0, 8.0 / sqrt((double)n));
    /*
     * Exponentiated supergradient ascent: w_v *= exp(eta_r (load_v / f - 1)),
     * the round's loads being a supergradient of f at w, eta_r = eta0/sqrt(r+1);
     * the best weights seen are kept (the ascent is not monotone).
     */
    /* c_v = min(k, deg v): the messages v may send (and receive) per step; 1 single-port */
    for (uint32_t v = 0; v < n; v++) {
        const uint64_t d = totex_network_degree(net, v);
        cap[v] = d < kp ? d : kp;
        if (!cap[v])
            cap[v] = 1;
    }
    double fbest = -1;
    for (uint32_t v = 0; v < n; v++)
        y[v] = 1.0 / n;
    for (uint32_t r = 0; r < rounds; r++) {
        double sum = 0;
        for (uint32_t v = 0; v < n; v++)
            sum += (double)cap[v] * y[v];
        for (uint32_t v = 0; v < n; v++) {
            y[v] /= sum;
            load[v] = 0;
        }
        double f = fw_round(&F, y, c, load) / 2.0; /* sum D_w / (2 sum_v c_v w_v), sum_v c_v w_v = 1 */
        symmetrize(net, load, tmp);
        if (f > fbest) {
            fbest = f;
            memcpy(best, y, sizeof *y * n);
        }
        const double eta = eta0 / sqrt(1.0 + r);
        /* d f / d w_v is proportional to load_v - f c_v */
        for (uint32_t v = 0; v < n; v++)
            y[v] *= exp(eta * (load[v] / (f * (double)cap[v]) - 1.0));
    }
    /* integer weights: the largest is 2^20 */
    double ymax = 0;
    for (uint32_t v = 0; v < n; v++)
        if (best[v] > ymax)
            ymax = best[v];
    uint64_t W = 0, CW = 0;
    for (uint32_t v = 0; v < n; v++) {
        wi[v] = (uint64_t)llround(best[v] / ymax * FW_SCALE);
        W += wi[v];
        CW += cap[v] * wi[v];
    }
    {
        const uint64_t X = fw_exact(&F, wi, c), den = 2 * CW;
        out->value = X / den + (X % den != 0);
        out->exact = (double)X / (double)den;
        /* profile: per coordinate of the dimension whose weight sums vary most, its share of W in percent */
        uint32_t dim = 0;
        double spread = -1;
        char prof[200] = "";
        for (uint32_t i = 0; i < F.k; i++) {
            const uint32_t m = totex_factor_nodes(totex_network_factor(net, i));
            double lo = INFINITY, hi = 0;
            for (uint32_t x = 0; x < m; x++) {
                double s = 0;
                for (uint32_t v = 0; v < n; v++)
                    if (totex_network_coord(net, v, i) == x)
                        s += (double)wi[v];
                lo = s < lo ? s : lo;
                hi = s > hi ? s : hi;
            }
            if (hi - lo > spread) {
                spread = hi - lo;
                dim = i;
            }
        }
        const uint32_t m = totex_factor_nodes(totex_network_factor(net, dim));
        size_t at = 0;
        for (uint32_t x = 0; x < m && at + 8 < sizeof prof; x++) {
            double s = 0;
            for (uint32_t v = 0; v < n; v++)
                if (totex_network_coord(net, v, dim) == x)
                    s += (double)wi[v];
            int w = snprintf(prof + at, sizeof prof - at, "%s%.1f", x ? " " : "", 100.0 * s / (double)W);
            if (w < 0 || (size_t)w >= sizeof prof - at)
                break;
            at += (size_t)w;
        }
        if (ports == TOTEX_PORTS_SINGLE)
            totex_witness(out,
                          "node weights w (integers, W = %" PRIu64 "): a hop u->v costs w_u + w_v, a single-port step at most "
                          "2W; every message's cheapest path summed: X = %" PRIu64 ", T >= X/2W = %.4f (000 eq. (3) weighted, "
                          "sends and receives); %% of W per coordinate of dimension %u: %s",
                          W, X, out->exact, dim, prof);
        else
            totex_witness(out,
                          "node weights w (integers, W = %" PRIu64 "): a hop u->v costs w_u + w_v, a %" PRIu64 "-port step "
                          "at most 2 sum_v min(k, deg v) w_v = %" PRIu64 "; every message's cheapest path summed: X = %" PRIu64
                          ", T >= %.4f (000 eq. (3) weighted, sends and receives, 001 Section 7 ports); %% of W per "
                          "coordinate of dimension %u: %s",
                          W, kp, den, X, out->exact, dim, prof);
    }
    if (weights)
        memcpy(weights, wi, sizeof *wi * n);
    if (strlen(totex_network_spec(net)) < sizeof memo.spec) {
        strcpy(memo.spec, totex_network_spec(net));
        memo.ports = ports;
        memo.bound = *out;
    }
done:
    fw_free(&F);
    free(y);
    free(cap);
    free(best);
    free(load);
    free(c);
    free(tmp);
    free(wi);
    return st;
}
