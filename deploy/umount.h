/* SPDX-License-Identifier: MIT */
/* nfsrdma umount: NFS mounts only, and only the one named. */
#ifndef NR_UMOUNT_H
#define NR_UMOUNT_H

/*
 * Unmounts the NFS mount on mountpoint (an absolute path, tidied by text),
 * then stops the daemons NFSv3 mounts needed when no NFSv3 mount is left.
 * Not mounted: 0, as when unmounted. Refused before anything changes, after
 * saying why: -ELOOP when mountpoint is or passes through a symbolic link,
 * -EMEDIUMTYPE when the mount there is not NFS. Other failures: -errno.
 */
int nr_umount(const char *mountpoint);

#endif
