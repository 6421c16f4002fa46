// SPDX-License-Identifier: MIT
#include <errno.h>
#include <net/if.h>
#include <rdma/ib_user_verbs.h>
#include <stdio.h>
#include <string.h>

#include "kmodule.h"
#include "link.h"
#include "rc_log.h"
#include "rc_links.h"
#include "rc_rdmanl.h"

#define NR_MAX_LINKS 64

const char *nr_link_add_cause(int err)
{
	switch (-err) {
	case EPERM:
		return "permission denied: needs CAP_NET_ADMIN, and rxe cannot "
		       "sit on a VLAN device";
	case ENODEV:
		return "the network device does not exist";
	case EEXIST:
		return "the network device already carries a Soft-RoCE link";
	case ENFILE:
		return "an RDMA device with that name already exists";
	case EINVAL:
		return "the kernel rejected the link: rdma_rxe is not loaded or "
		       "the name is invalid";
	case EOPNOTSUPP:
		return "the kernel has no link type 'rxe' (rdma_rxe missing)";
	default:
		return NULL;
	}
}

static int find(const struct rc_link *links, int n, const char *name,
		const char *netdev)
{
	int i;

	for (i = 0; i < n; i++)
		if ((name && !strcmp(links[i].name, name)) ||
		    (netdev && !strcmp(links[i].netdev, netdev)))
			return i;
	return -1;
}

/* What the existing links say of adding name on netdev: 1 when exactly
 * that link is there already, 0 when it may be added, -errno (said) when
 * the name or the netdev is taken. */
static int nr_link_add_conflict(const struct rc_link *links, int n,
				const char *name, const char *netdev)
{
	char fix[256];
	int i;

	i = find(links, n, name, NULL);
	if (i >= 0 && !strcmp(links[i].netdev, netdev)) {
		printf("link %s on %s already present\n", name, netdev);
		return 1;
	}
	if (i >= 0) {
		snprintf(fix, sizeof(fix),
			 "choose another name, or 'nfsrdma link del %s' first",
			 name);
		rc_diag(fix, "link %s: the name is taken by a device on '%s'",
			name, links[i].netdev);
		return -ENFILE;
	}
	i = find(links, n, NULL, netdev);
	if (i >= 0) {
		snprintf(fix, sizeof(fix),
			 "use %s, or 'nfsrdma link del %s' first",
			 links[i].name, links[i].name);
		rc_diag(fix, "link %s: %s already carries RDMA device %s", name,
			netdev, links[i].name);
		return -EEXIST;
	}
	return 0;
}

/* RDMA_NLDEV_CMD_NEWLINK for an rxe device named name on netdev. */
static int nr_link_add_request(const char *name, const char *netdev)
{
	struct rc_rdmanl *nl = NULL;
	const char *cause;
	char msg[512];
	int ret, len;

	ret = rc_rdmanl_open(&nl);
	if (ret)
		return ret;
	len = rc_rdmanl_build_newlink(msg, sizeof(msg), rc_rdmanl_next_seq(nl),
				      name, "rxe", netdev);
	ret = len < 0 ? len : rc_rdmanl_request(nl, msg, len, NULL, NULL);
	rc_rdmanl_close(&nl);
	if (ret) {
		cause = nr_link_add_cause(ret);
		rc_diag(ret == -EPERM ? "run as root, on a non-VLAN device"
				      : "see the cause above",
			"link add %s type rxe netdev %s failed: %s (%s)", name,
			netdev, cause ? cause : "unexpected error",
			strerror(-ret));
	}
	return ret;
}

int nr_link_add(const char *name, const char *netdev)
{
	struct rc_link links[NR_MAX_LINKS];
	char fix[256];
	int n, i, ret;

	if (!name[0] || strlen(name) >= IB_DEVICE_NAME_MAX) {
		rc_diag("pick a name of 1 to 63 characters, e.g. rxe0",
			"link name '%s' is not a valid RDMA device name", name);
		return -EINVAL;
	}
	if (!if_nametoindex(netdev)) {
		snprintf(fix, sizeof(fix),
			 "name an existing interface (see 'ip link'), not '%s'",
			 netdev);
		rc_diag(fix, "link %s: network device %s does not exist", name,
			netdev);
		return -ENODEV;
	}
	ret = nr_module_load("rdma_rxe", "Soft-RoCE driver");
	if (ret)
		return ret;
	/* Userspace verbs (perftest, fio) need the uverbs and ucm devices;
	 * without udev nothing else would load them. */
	if (nr_module_load("ib_uverbs", "userspace verbs") ||
	    nr_module_load("rdma_ucm", "userspace RDMA CM"))
		fprintf(stderr, "nfsrdma: warning: userspace RDMA tools will "
				"not find the device\n");
	n = rc_link_list(links, NR_MAX_LINKS);
	if (n < 0)
		return n;
	ret = nr_link_add_conflict(links, n, name, netdev);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = nr_link_add_request(name, netdev);
	if (ret)
		return ret;
	n = rc_link_list(links, NR_MAX_LINKS);
	i = n < 0 ? -1 : find(links, n, name, NULL);
	if (i < 0 || strcmp(links[i].netdev, netdev)) {
		rc_diag("check 'dmesg' for rdma_rxe messages",
			"link %s: the kernel accepted it but does not list it "
			"on %s",
			name, netdev);
		return -EIO;
	}
	printf("link %s on %s added\n", name, netdev);
	return 0;
}

int nr_link_del(const char *name)
{
	struct rc_link links[NR_MAX_LINKS];
	struct rc_rdmanl *nl = NULL;
	char msg[256];
	int n, i, ret, len;

	n = rc_link_list(links, NR_MAX_LINKS);
	if (n < 0)
		return n;
	i = find(links, n, name, NULL);
	if (i < 0) {
		printf("link %s not present\n", name);
		return 0;
	}
	ret = rc_rdmanl_open(&nl);
	if (ret)
		return ret;
	len = rc_rdmanl_build_dellink(msg, sizeof(msg), rc_rdmanl_next_seq(nl),
				      links[i].index);
	ret = rc_rdmanl_request(nl, msg, len, NULL, NULL);
	rc_rdmanl_close(&nl);
	if (ret) {
		rc_diag(ret == -EPERM ? "run as root"
				      : "only links made by 'link add' (rxe, "
					"siw) can be deleted",
			"link del %s failed: %s", name, strerror(-ret));
		return ret;
	}
	printf("link %s deleted\n", name);
	return 0;
}
