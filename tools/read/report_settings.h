/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_REPORT_SETTINGS_H
#define RDMAIO_TOOLS_REPORT_SETTINGS_H

#include <stdio.h>

#include "result/resultdoc.h"

/*
 * The report's settings side by side: for each NFS comparison's fairness
 * check, the RDMA and the TCP side's mount (proto, vers, rsize/wsize,
 * nconnect, timeo), export (sync or async) and server (nfsd threads) as one
 * table, and what the check said. Workloads with the same settings share a
 * table. Nothing without fairness checks.
 */
void rio_report_settings_table(const struct rio_resultdoc *rd, FILE *out);

#endif
