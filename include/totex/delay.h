/**
 * @file totex/delay.h
 * @brief A lower bound on the average delay of total exchange: the auxiliary
 *        shortest-processing-time problem of 001's appendix (Theorem 6,
 *        Proposition 1).
 *
 * Relax the network to servers and customers: every packet is a customer
 * that needs x_i slots of service (its route length, the row sum of the task
 * matrix), served by at most one server per slot; every link is a server
 * serving at most one customer per slot. Any store-and-forward algorithm
 * that routes on shortest paths is a schedule of this relaxed problem, so
 * the optimum of the relaxed problem, reached by serving in every slot the
 * customers with the least positive residual service (SPT, Proposition 1),
 * bounds the average delay of every such algorithm from below. By symmetry
 * (an isotropic task, 001 Section 2) one node suffices: its d links (k-port:
 * min(k, d)) are the servers and its packets (the rows) the customers.
 */
#ifndef TOTEX_DELAY_H
#define TOTEX_DELAY_H

#include "totex/task.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Mean completion slot of the SPT schedule of the auxiliary problem for task
 * @p t under @p ports (servers = columns of @p t; k-port: min(k, columns);
 * TOTEX_PORTS_MULTI: all columns), customers = rows with service = row sum.
 * A lower bound, in steps, on the average delay (mean delivery step over the
 * packets, as in totex_sym_report and totex_sim_report) of any
 * shortest-path algorithm for the task (001 Theorem 6, Proposition 1).
 * O(rows log servers) time, O(servers + largest row sum) memory: the SPT
 * schedule only changes its served set when a customer completes, so it is
 * list scheduling of the customers in increasing service order on the
 * earliest free server (customers taken from buckets by service time).
 * @param t     a task matrix (totex/task.h).
 * @param ports the port model (k-port: at most k servers).
 * @param out   receives the bound, in steps (a mean: not an integer).
 * @param err   receives the message on failure (may be NULL).
 * @return TOTEX_OK and @p out; TOTEX_EINVAL for NULL arguments, ports above
 *         TOTEX_PORTS_MAX_K or a task without rows; TOTEX_ENOMEM.
 */
totex_status totex_delay_lower_bound(const totex_task *t, totex_ports ports, double *out, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
