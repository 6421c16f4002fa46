// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rc_links.h"
#include "rc_log.h"
#include "rc_rdmanl.h"

struct dump_ctx {
	struct rc_link *links;
	int max;
	int n;
};

static int dev_cb(const struct rc_rdmanl_attrs *a, void *arg)
{
	struct dump_ctx *d = arg;

	if (!a->has_index || d->n >= d->max)
		return 0;
	memset(&d->links[d->n], 0, sizeof(d->links[d->n]));
	d->links[d->n].index = a->index;
	snprintf(d->links[d->n].name, sizeof(d->links[d->n].name), "%s",
		 a->name);
	d->n++;
	return 0;
}

static int port_cb(const struct rc_rdmanl_attrs *a, void *arg)
{
	struct rc_link *l = arg;

	if (a->ndev_name[0] && !l->netdev[0])
		snprintf(l->netdev, sizeof(l->netdev), "%s", a->ndev_name);
	return 0;
}

static int chardev_cb(const struct rc_rdmanl_attrs *a, void *arg)
{
	struct rc_link *l = arg;

	if (a->has_driver_id)
		l->driver = rc_rdmanl_driver_name(a->driver_id);
	return 0;
}

int rc_link_list(struct rc_link *links, int max)
{
	struct dump_ctx d = { .links = links, .max = max };
	struct rc_rdmanl *nl = NULL;
	char msg[256];
	int ret, i, len;

	ret = rc_rdmanl_open(&nl);
	if (ret)
		return ret;
	len = rc_rdmanl_build_dev_dump(msg, sizeof(msg),
				       rc_rdmanl_next_seq(nl));
	ret = rc_rdmanl_request(nl, msg, len, dev_cb, &d);
	if (ret) {
		rc_call_err(ret, "RDMA netlink device dump");
		goto out;
	}
	for (i = 0; i < d.n; i++) {
		len = rc_rdmanl_build_port_dump(msg, sizeof(msg),
						rc_rdmanl_next_seq(nl),
						links[i].index);
		ret = rc_rdmanl_request(nl, msg, len, port_cb, &links[i]);
		if (ret) {
			rc_call_err(ret, "RDMA netlink port dump of %s",
				    links[i].name);
			goto out;
		}
		/* Without ib_uverbs there is no char device and the driver
		 * stays unknown: that is not an error. */
		len = rc_rdmanl_build_chardev(msg, sizeof(msg),
					      rc_rdmanl_next_seq(nl),
					      links[i].index);
		rc_rdmanl_request(nl, msg, len, chardev_cb, &links[i]);
	}
	ret = d.n;
out:
	rc_rdmanl_close(&nl);
	return ret;
}
