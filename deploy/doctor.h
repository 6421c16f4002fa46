/* SPDX-License-Identifier: MIT */
#ifndef NR_DOCTOR_H
#define NR_DOCTOR_H

/* The largest IB MTU a RoCE device over a netdev of netdev_mtu can use
 * (rdma_rxe keeps 80 bytes for its headers), or 0 when none fits. */
int nr_doctor_roce_mtu(int netdev_mtu);

/* Runs every check and prints ok/warn/FAIL lines with fixes; spec, when not
 * NULL, is SERVER:/PATH to probe. Returns the number of failures. */
int nr_doctor(const char *spec);

#endif
