/**
 * @file totex.h
 * @brief totex: total exchange (all-to-all personalized exchange) on
 *        multidimensional interconnection networks. Includes every public header.
 */
#ifndef TOTEX_H
#define TOTEX_H
#include "totex/common.h"
#include "totex/output.h"
#include "totex/network.h"
#include "totex/machines.h"
#include "totex/bounds.h"
#include "totex/task.h"
#include "totex/demand.h"
#include "totex/demand_bounds.h"
#include "totex/wschedule.h"
#include "totex/demand_plan.h"
#include "totex/demand_report.h"
#include "totex/symmetric.h"
#include "totex/delay.h"
#include "totex/combining.h"
#include "totex/schedule.h"
#include "totex/schedule_io.h"
#include "totex/sim.h"
#include "totex/algorithm.h"
#include "totex/exact.h"
#include "totex/progress.h"
#include "totex/plan.h"
#include "totex/report.h"
#include "totex/picture.h"
#endif
