// SPDX-License-Identifier: GPL-2.0
/* A qemu TCG plugin for lab/run --insn-count DIR: counts the instructions
 * the guest executes, per translation block (keyed by the block's guest
 * address), and each time a guest process executes the mark instruction
 * (build/lab/insnmark) writes the counts since the last mark to
 * DIR/window-NNNN.txt and starts again from zero.
 *
 * perf in an instruction-counted guest samples in step with the guest's
 * loops (lab/README.md, "Exact"); a count per block does not sample, so
 * each function's share of a window is exact. Inline counters need one
 * vCPU thread: lab/run loads this only with --exact. */
#define _GNU_SOURCE /* tdestroy */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <search.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* xchg %bx,%bx: a no-op no compiler emits, known as a mark to emulators. */
static const unsigned char mark_bytes[] = { 0x66, 0x87, 0xdb };
/* Only a user process's mark counts: the kernel's half starts here. */
#define USER_TOP 0x0000800000000000ULL
/* A window's path: the folder, "/window-NNNN.txt" and ".tmp". */
#define PATH_LEN (PATH_MAX + 32)

struct block {
	uint64_t vaddr;
	uint64_t count;
};

static struct {
	char dir[PATH_MAX];
	void *tree; /* tsearch tree of struct block, by vaddr */
	struct block **v; /* the same blocks, for writing and zeroing */
	size_t n, cap;
	unsigned window;
	int lost; /* blocks that could not be kept, ever */
} st;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	char line[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	qemu_plugin_outs(line);
}

static int block_cmp(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/* The block at VADDR, made on first sight; NULL when out of memory. */
static struct block *block_get(uint64_t vaddr)
{
	struct block key = { .vaddr = vaddr }, *b, **slot;

	slot = tfind(&key, &st.tree, block_cmp);
	if (slot)
		return *slot;
	if (st.n == st.cap) {
		size_t cap = st.cap ? 2 * st.cap : 65536;
		struct block **v = realloc(st.v, cap * sizeof(*v));

		if (!v)
			return NULL;
		st.v = v;
		st.cap = cap;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->vaddr = vaddr;
	slot = tsearch(b, &st.tree, block_cmp);
	if (!slot) {
		free(b);
		return NULL;
	}
	st.v[st.n++] = b;
	return b;
}

/* Writes the window through a temporary name, so a reader in the guest
 * never sees half of one. */
static int window_write(const char *path)
{
	char tmp[PATH_LEN + 8];
	FILE *f;
	size_t i;
	int ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fprintf(f,
		"# insncount window %u: guest address of a block, instructions\n",
		st.window);
	if (st.lost)
		fprintf(f, "lost %d\n", st.lost);
	for (i = 0; i < st.n; i++)
		if (st.v[i]->count)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", st.v[i]->vaddr,
				st.v[i]->count);
	ok = !ferror(f);
	if (fclose(f) || !ok || rename(tmp, path)) {
		int err = errno ? errno : EIO;

		unlink(tmp);
		return -err;
	}
	return 0;
}

static void mark_exec(unsigned int vcpu, void *udata)
{
	char path[PATH_LEN];
	size_t i;
	int rc;

	(void)vcpu;
	(void)udata;
	snprintf(path, sizeof(path), "%s/window-%04u.txt", st.dir, st.window);
	rc = window_write(path);
	if (rc)
		say("insncount: cannot write %s: %s\n", path, strerror(-rc));
	/* lost stays: a block left uncounted stays so while its
	 * translation is cached, in every window after. */
	for (i = 0; i < st.n; i++)
		st.v[i]->count = 0;
	st.window++;
}

static int insn_is_mark(struct qemu_plugin_insn *insn)
{
	return qemu_plugin_insn_vaddr(insn) < USER_TOP &&
	       qemu_plugin_insn_size(insn) == sizeof(mark_bytes) &&
	       !memcmp(qemu_plugin_insn_data(insn), mark_bytes,
		       sizeof(mark_bytes));
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct block *b = block_get(qemu_plugin_tb_vaddr(tb));

	(void)id;
	if (b)
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count, n);
	else if (!st.lost++)
		say("insncount: out of memory: blocks go uncounted, and each window written says so\n");
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (insn_is_mark(insn))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, mark_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	tdestroy(st.tree, free);
	free(st.v);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	int i;

	if (!info->system_emulation) {
		fprintf(stderr,
			"insncount: counts a whole guest; load it into qemu-system\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4) || !argv[i][4] ||
		    strlen(argv[i] + 4) >= sizeof(st.dir)) {
			fprintf(stderr,
				"insncount: unknown argument '%s'; give out=DIR, the folder for the windows\n",
				argv[i]);
			return -1;
		}
		strcpy(st.dir, argv[i] + 4);
	}
	if (!st.dir[0]) {
		fprintf(stderr,
			"insncount: no out=DIR given: where should the windows go?\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
