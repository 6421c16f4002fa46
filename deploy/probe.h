/* SPDX-License-Identifier: MIT */
/* nfsrdma probe: is the server answering, and is PATH exported to us? */
#ifndef NR_PROBE_H
#define NR_PROBE_H

/* spec is SERVER or SERVER:/PATH. Returns 0 when the server answers (and
 * PATH mounts over TCP with NFSv3), -errno (explained) otherwise. */
int nr_probe(const char *spec);

#endif
