// SPDX-License-Identifier: GPL-2.0
/* fio's view of librdmaio: the ioengine_ops table and the glue that sends
 * each hook to the job's role, a target or a client. */
#include <errno.h>

#include "fio.h"
#include "optgroup.h"
#include "verify.h"

#include "opts.h"
#include "proto.h"
#include "rio_client.h"
#include "rio_log.h"
#include "target.h"

struct rio_engine {
	struct rio_client *client;
	struct rio_target *target;
};

static struct fio_option rio_options[] = {
	{
		.name = "listen",
		.lname = "rdmaio target",
		.type = FIO_OPT_STR_SET,
		.off1 = offsetof(struct rio_opts, listen),
		.help = "Make this job the target: expose size= bytes of memory and serve clients (a job without hostname= is the target too, exposing iodepth x bs bytes as fio's rdma server does)",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "hostname",
		.lname = "rdmaio target address",
		.type = FIO_OPT_STR_STORE,
		.off1 = offsetof(struct rio_opts, hostname),
		.help = "Client: the target's address (IPv4, IPv6 or a name on an RDMA netdev)",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "bindname",
		.lname = "rdmaio local address",
		.type = FIO_OPT_STR_STORE,
		.off1 = offsetof(struct rio_opts, bindname),
		.help = "Target: listen only on this address (default: every address of the host, as perftest's servers); client: connect from this source address (default: the route's)",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "port",
		.lname = "rdmaio port",
		.type = FIO_OPT_INT,
		.off1 = offsetof(struct rio_opts, port),
		.minval = 1,
		.maxval = 65535,
		.def = "7471",
		.help = "rdma_cm port the target listens on and the client connects to",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "verb",
		.lname = "rdmaio verb",
		.alias = "proto", /* as in fio's rdma engine */
		.type = FIO_OPT_STR,
		.off1 = offsetof(struct rio_opts, verb),
		.def = "auto",
		.help = "How I/O units move: auto, write, read, send, write_imm, fetch_add, cmp_swap, or recv on a target",
		.posval = {
			{ .ival = "auto",
			  .oval = RIO_VERB_AUTO,
			  .help = "Writes are RDMA WRITEs, reads are RDMA READs, at region base + offset" },
			{ .ival = "write",
			  .oval = RIO_VERB_WRITE,
			  .help = "RDMA WRITE only, for reads and writes alike (fio counts each in its rw direction)" },
			{ .ival = "read",
			  .oval = RIO_VERB_READ,
			  .help = "RDMA READ only, for reads and writes alike (fio counts each in its rw direction)" },
			{ .ival = "send",
			  .oval = RIO_VERB_SEND,
			  .help = "Writes are SENDs; the target counts received bytes as reads" },
			{ .ival = "write_imm",
			  .oval = RIO_VERB_WRITE_IMM,
			  .help = "RDMA WRITE with immediate; the target counts the completions as reads" },
			{ .ival = "fetch_add",
			  .oval = RIO_VERB_FETCH_ADD,
			  .help = "Writes are 8-byte atomic fetch-and-add of 1 (bs=8)" },
			{ .ival = "cmp_swap",
			  .oval = RIO_VERB_CMP_SWAP,
			  .help = "Writes are 8-byte atomic compare(0)-and-swap(1) (bs=8); the job's end says how many swapped" },
			{ .ival = "recv",
			  .oval = RIO_VERB_RECV,
			  .help = "Target only: the receiving side of send, as fio's rdma engine names it" },
		},
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "connect_timeout",
		.lname = "rdmaio connect timeout",
		.type = FIO_OPT_INT,
		.off1 = offsetof(struct rio_opts, connect_timeout),
		.minval = 0,
		.maxval = 3600,
		.def = "5",
		.help = "Client: seconds to keep retrying while the target is not listening yet",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "stall_timeout",
		.lname = "rdmaio stall timeout",
		.type = FIO_OPT_INT,
		.off1 = offsetof(struct rio_opts, stall_timeout),
		.minval = 1,
		.maxval = 3600,
		.def = "30",
		.help = "Client: seconds I/Os may stay in flight without any completion before the job fails (a target that stopped serving); target without runtime: seconds a connected client may send no keepalive before its connection is ended",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "clients",
		.lname = "rdmaio clients",
		.type = FIO_OPT_INT,
		.off1 = offsetof(struct rio_opts, clients),
		.minval = 1,
		.def = "1",
		.help = "Target: connections (client jobs x qps) to serve before the target ends",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "qps",
		.lname = "rdmaio queue pairs",
		.type = FIO_OPT_INT,
		.off1 = offsetof(struct rio_opts, qps),
		.minval = 1,
		.maxval = RIO_MAX_QPS,
		.def = "1",
		.help = "Client: spread this job's I/O over this many queue pairs (connections)",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "inline",
		.lname = "rdmaio inline data",
		.type = FIO_OPT_INT,
		.off1 = offsetof(struct rio_opts, inline_size),
		.minval = -1,
		.maxval = 4096,
		.def = "-1",
		.help = "Client: WRITEs and SENDs up to this many bytes carry their data in the work request (0: none; -1: up to 64 where the device takes it)",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "signal_every",
		.lname = "rdmaio completion moderation",
		.type = FIO_OPT_INT,
		.off1 = offsetof(struct rio_opts, signal_every),
		.minval = 0,
		.maxval = 65536,
		.def = "0",
		.help = "Client: ask the device for a completion on one request in this many (0: a quarter of iodepth per queue pair; 1: every request, so each I/O's clat is its own)",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "device",
		.lname = "rdmaio RDMA device",
		.type = FIO_OPT_STR_STORE,
		.off1 = offsetof(struct rio_opts, device),
		.help = "The RDMA device (rxe0, mlx5_0) the connections must use: a client checks that its route to hostname= leaves through it; a target without bindname= serves it",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "tos",
		.lname = "rdmaio traffic class",
		.type = FIO_OPT_STR_STORE,
		.off1 = offsetof(struct rio_opts, tos),
		.help = "Client: the IP traffic class byte of its connections, DSCP x 4 + ECN (0..255; 106 is DSCP 26 with ECN); default: the device's",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "hugepages",
		.lname = "rdmaio huge page region",
		.type = FIO_OPT_STR_SET,
		.off1 = offsetof(struct rio_opts, hugepages),
		.help = "Target: allocate the region in huge pages (reserved with vm.nr_hugepages), for fewer translation entries on the device",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = "use_events",
		.lname = "rdmaio completion events",
		.type = FIO_OPT_BOOL,
		.off1 = offsetof(struct rio_opts, use_events),
		.def = "0",
		.help = "Sleep on a completion channel instead of busy polling the completion queue",
		.category = FIO_OPT_C_ENGINE,
		.group = FIO_OPT_G_RDMA,
	},
	{
		.name = NULL,
	},
};

/* The region bytes a client job can address: [start of its first file,
 * end of its last). */
static uint64_t rio_job_span(struct thread_data *td, uint64_t *start)
{
	struct fio_file *f;
	uint64_t span = 0;
	unsigned int i;

	*start = UINT64_MAX;
	for_each_file(td, f, i)
	{
		if (f->file_offset + f->io_size > span)
			span = f->file_offset + f->io_size;
		if (f->file_offset < *start)
			*start = f->file_offset;
	}
	if (*start > span)
		*start = 0;
	return span;
}

static void rio_job_of(struct thread_data *td, struct rio_job *j)
{
	j->reads = td_read(td);
	j->writes = td_write(td);
	j->verify = td->o.verify != VERIFY_NONE && !td->o.verify_only;
	j->verify_only = td->o.verify_only;
	j->min_bs = td->o.min_bs[DDIR_READ] < td->o.min_bs[DDIR_WRITE]
			    ? td->o.min_bs[DDIR_READ]
			    : td->o.min_bs[DDIR_WRITE];
	j->max_bs = td->o.max_bs[DDIR_READ] > td->o.max_bs[DDIR_WRITE]
			    ? td->o.max_bs[DDIR_READ]
			    : td->o.max_bs[DDIR_WRITE];
	j->size = td->o.size;
	j->span = rio_job_span(td, &j->start);
	j->iodepth = td->o.iodepth;
}

static int rio_fail(struct thread_data *td, int ret, const char *func)
{
	td_verror(td, ret < 0 ? -ret : EINVAL, func);
	return 1;
}

static int rio_setup(struct thread_data *td)
{
	struct rio_opts *o = td->eo;

	if (!td->files_index) {
		add_file(td,
			 rio_opts_target(o) ? "rdmaio-target" : "rdmaio-client",
			 0, 0);
		td->o.nr_files = td->o.nr_files ?: 1;
		td->o.open_files++;
	}
	return 0;
}

static int rio_init(struct thread_data *td)
{
	struct rio_opts *o = td->eo;
	struct rio_engine *e;
	struct rio_job j;
	int ret;

	rio_job_of(td, &j);
	ret = rio_opts_check(o, &j);
	if (ret)
		return rio_fail(td, ret, "rdmaio options");
	e = calloc(1, sizeof(*e));
	if (!e)
		return rio_fail(td, -ENOMEM, "rdmaio init");
	td->io_ops_data = e;
	if (rio_opts_target(o)) {
		/* A target serves until its clients are gone or its runtime
		 * ends, never because size= bytes went by. */
		td->o.time_based = 1;
		td->o.iodepth_low = td->o.iodepth;
		ret = rio_target_new(td, o, rio_opts_region(o, &j), &e->target);
	} else {
		ret = rio_client_new(td, o, &e->client);
	}
	if (ret)
		return rio_fail(td, ret, "rdmaio init");
	return 0;
}

static int rio_post_init(struct thread_data *td)
{
	struct rio_engine *e = td->io_ops_data;
	struct rio_opts *o = td->eo;
	struct rio_hello h = { 0 };
	struct rio_job j;
	int ret;

	/* fio 3.33 goes on when it cannot allocate the I/O buffers
	 * (init_io_u ignores init_io_u_buffers' result): iomem=shmhuge or
	 * mmaphuge without free huge pages reaches here with none. */
	if (!td->orig_buffer) {
		rio_err("%s job: fio could not allocate its I/O buffers (fio's message above names why); with iomem=shmhuge or mmaphuge, reserve huge pages first: echo N > /proc/sys/vm/nr_hugepages",
			e->target ? "target" : "client");
		return rio_fail(td, -ENOMEM, "rdmaio post_init");
	}
	if (e->target) {
		ret = rio_target_post_init(e->target);
		return ret ? rio_fail(td, ret, "rdmaio post_init") : 0;
	}
	rio_job_of(td, &j);
	h.version = RIO_PROTO_VERSION;
	h.need = rio_opts_need(o, &j);
	h.max_bs = j.max_bs;
	h.start = j.start;
	h.span = j.span;
	h.depth = td->o.iodepth;
	ret = rio_client_connect(e->client, &h);
	return ret ? rio_fail(td, ret, "rdmaio connect") : 0;
}

static enum fio_q_status rio_queue(struct thread_data *td, struct io_u *io_u)
{
	struct rio_engine *e = td->io_ops_data;

	fio_ro_check(td, io_u);
	if (e->client)
		return rio_client_queue(e->client, io_u);
	return rio_target_queue(e->target, io_u);
}

static int rio_commit(struct thread_data *td)
{
	struct rio_engine *e = td->io_ops_data;

	if (e->client)
		return rio_client_commit(e->client);
	return rio_target_commit(e->target);
}

static int rio_getevents(struct thread_data *td, unsigned int min,
			 unsigned int max, const struct timespec *t)
{
	struct rio_engine *e = td->io_ops_data;
	int ret;

	if (e->client)
		ret = rio_client_getevents(e->client, min, max, t);
	else
		ret = rio_target_getevents(e->target, min, max, t);
	/* fio records a negative getevents result as is; give it errno. */
	if (ret < 0)
		td_verror(td, -ret, "rdmaio getevents");
	return ret;
}

static struct io_u *rio_event(struct thread_data *td, int event)
{
	struct rio_engine *e = td->io_ops_data;

	if (e->client)
		return rio_client_event(e->client, event);
	return rio_target_event(e->target, event);
}

static int rio_file_noop(struct thread_data *td, struct fio_file *f)
{
	(void)td;
	(void)f;
	return 0;
}

/* The MR over fio's buffers must go before fio frees them: fio frees the
 * I/O units (io_u_free) and then the buffers, and only then calls
 * cleanup. Not at close_file: fio closes and reopens files between the
 * write and the verify phase of one job. */
static void rio_io_u_free(struct thread_data *td, struct io_u *io_u)
{
	struct rio_engine *e = td->io_ops_data;

	(void)io_u;
	if (!e)
		return;
	rio_client_close(e->client);
	rio_target_close(e->target);
}

static void rio_cleanup(struct thread_data *td)
{
	struct rio_engine *e = td->io_ops_data;

	if (!e)
		return;
	rio_client_report(e->client);
	rio_client_delete(&e->client);
	rio_target_delete(&e->target);
	free(e);
	td->io_ops_data = NULL;
}

__attribute__((visibility("default"))) struct ioengine_ops ioengine = {
	.name = "librdmaio",
	.version = FIO_IOOPS_VERSION,
	.flags = FIO_DISKLESSIO | FIO_ASYNCIO_SETS_ISSUE_TIME,
	.setup = rio_setup,
	.init = rio_init,
	.post_init = rio_post_init,
	.queue = rio_queue,
	.commit = rio_commit,
	.getevents = rio_getevents,
	.event = rio_event,
	.cleanup = rio_cleanup,
	.open_file = rio_file_noop,
	.close_file = rio_file_noop,
	.io_u_free = rio_io_u_free,
	.options = rio_options,
	.option_struct_size = sizeof(struct rio_opts),
};
