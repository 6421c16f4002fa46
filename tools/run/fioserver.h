/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_FIOSERVER_H
#define RDMAIO_TOOLS_FIOSERVER_H

/*
 * A fio --server on this host for one run (`--client-host local`): fio's
 * client mode runs no job locally, so the jobs meant for this host go
 * through a server of its own. It listens on a unix socket in a private
 * folder (0700): fio's protocol has no authentication and runs any job file
 * as root, so it never listens on a network address.
 */
struct rio_fioserver;

/* Starts `FIO --server=sock:PATH` and waits until it accepts connections.
 * Returns 0, or a negative code after saying why. */
int rio_fioserver_start(const char *fio, struct rio_fioserver **srv);

/* The address to give fio --client (sock:PATH). */
const char *rio_fioserver_client(const struct rio_fioserver *srv);

/* Stops the server (its process group), removes its folder; NULL is fine. */
void rio_fioserver_stop(struct rio_fioserver **srv);

#endif
