// SPDX-License-Identifier: MIT
/*
 * The exports writer against a temporary root (NFSRDMA_ROOT): exports(5)
 * escaping, validation, idempotent edits, and a writer killed mid-rewrite
 * leaving a whole file.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "exports.h"
#include "rc_log.h"
#include "sysfile.h"

static char root[64];

static int setup(void **state)
{
	char dir[128];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/nfsrdma-test-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(dir, sizeof(dir), "%s/etc", root);
	mkdir(dir, 0755);
	setenv("NFSRDMA_ROOT", root, 1);
	return 0;
}

static int teardown(void **state)
{
	char path[256];

	(void)state;
	struct dirent *de;
	DIR *d;

	/* Killed writers leave their temp files behind: remove all. */
	snprintf(path, sizeof(path), "%s/etc/exports.d", root);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char f[512];

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		snprintf(f, sizeof(f), "%s/%s", path, de->d_name);
		unlink(f);
	}
	if (d)
		closedir(d);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/etc", root);
	rmdir(path);
	rmdir(root);
	return 0;
}

static char *read_exports(char *buf, size_t len)
{
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s%s", root, NR_EXPORTS_FILE);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void escape__space_hash_backslash(void **state)
{
	char out[128];

	(void)state;
	assert_int_equal(
		nr_export_escape("/srv/my data#1\\x", out, sizeof(out)), 0);
	assert_string_equal(out, "/srv/my\\040data\\0431\\134x");
	assert_int_equal(nr_export_escape("/a\tb\"c", out, sizeof(out)), 0);
	assert_string_equal(out, "/a\\011b\\042c");
	assert_int_equal(nr_export_escape("/srv/ab", out, 6), -ENOSPC);
}

static void parse__roundtrips_escaped_path(void **state)
{
	struct rc_export e[4];
	char esc[128], line[256];

	(void)state;
	nr_export_escape("/srv/my data", esc, sizeof(esc));
	snprintf(line, sizeof(line), "%s 198.18.0.0/24(rw,sync) *.lab(ro)",
		 esc);
	assert_int_equal(rc_export_parse_line(line, e, 4), 2);
	assert_string_equal(e[0].path, "/srv/my data");
	assert_string_equal(e[0].client, "198.18.0.0/24");
	assert_string_equal(e[0].options, "rw,sync");
	assert_string_equal(e[1].path, "/srv/my data");
	assert_string_equal(e[1].client, "*.lab");
	assert_string_equal(e[1].options, "ro");
	assert_int_equal(rc_export_parse_line("  # comment", e, 4), 0);
	assert_int_equal(rc_export_parse_line("\"/q d\" -ro h1", e, 4), 1);
	assert_string_equal(e[0].path, "/q d");
	assert_string_equal(e[0].client, "h1");
	assert_string_equal(e[0].options, "ro");
}

static void client__accepts_valid_specs(void **state)
{
	static const char *const good[] = { "*",
					    "198.18.0.1",
					    "198.18.0.0/24",
					    "10.0.0.0/255.0.0.0",
					    "fd18::1",
					    "fd18::/64",
					    "host.lab",
					    "*.lab",
					    "node?.lab",
					    "@group" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(nr_export_check_client(good[i]), 0);
}

static void client__rejects_bad_specs(void **state)
{
	static const char *const bad[] = { "",
					   "198.18.0.0/33",
					   "198.18.0.300",
					   "fd18::/129",
					   "fd18:::1::",
					   "a b",
					   "host(rw)",
					   "host.lab/24",
					   "@",
					   "h,i",
					   "-rw",
					   "-",
					   "a\nb",
					   "h'x",
					   "198.18.0.0/024",
					   "198.18.0.0/+8" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(nr_export_check_client(bad[i]), -EINVAL);
}

static void options__validated_against_exports5(void **state)
{
	(void)state;
	assert_int_equal(nr_export_check_options("rw,sync,no_subtree_check"),
			 0);
	assert_int_equal(nr_export_check_options("ro,fsid=7,sec=sys:krb5"), 0);
	assert_int_equal(nr_export_check_options("rw,anonuid=65534"), 0);
	assert_int_equal(nr_export_check_options("rw,ro"), -EINVAL);
	assert_int_equal(nr_export_check_options("sync,async"), -EINVAL);
	assert_int_equal(nr_export_check_options("rw,bogus"), -EINVAL);
	assert_int_equal(nr_export_check_options("rw=1"), -EINVAL);
	assert_int_equal(nr_export_check_options("anonuid=x"), -EINVAL);
	assert_int_equal(nr_export_check_options("sec=krb6"), -EINVAL);
	assert_int_equal(nr_export_check_options("fsid="), -EINVAL);
}

/* Each value by its own rule: nothing that exportfs would read as the end
 * of the list, another client or another line. */
static void options__values_cannot_escape_the_list(void **state)
{
	static const char *const good[] = {
		"rw,refer=/a@h",
		"ro,refer=/a/b@h1+h2:/c@198.18.0.2",
		"replicas=/x@h",
		"mp",
		"mp=/srv",
		"mountpoint=/srv/x",
		"fsid=0",
		"fsid=4294967295",
		"fsid=root",
		"fsid=6f1c0b52-9e3a-4d2b-8c5e-0123456789ab",
		"anonuid=0,anongid=65534",
		"",
	};
	static const char *const bad[] = {
		"rw,fsid=8,refer=/a@h) *(rw,no_root_squash,insecure,fsid=8",
		"rw,refer=/a@h\n/srv/other *(rw,no_root_squash",
		"rw,refer=/a@h\n",
		"refer=a@h",
		"refer=/a",
		"refer=/a@",
		"refer=/a@h+",
		"refer=/a@h:",
		"refer=/a@h#x",
		"refer=/a@fd18::1",
		"refer=/a/../b@h",
		"replicas=/a@h\"x",
		"mp=x",
		"mp=/a//b",
		"mountpoint=/a b",
		"anonuid= 5",
		"anonuid=+5",
		"anonuid=-1",
		"anonuid=4294967295",
		"fsid=010",
		"fsid=0x10",
		"fsid=8 ",
		"fsid=4294967296",
		"fsid=abc",
		/* 32 digits: exportfs reads a number (0, the NFSv4 root). */
		"fsid=00000000000000000000000000000000",
		"sec=sys:",
		"rw,,sync",
		"rw,",
		",rw",
	};
	char buf[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(nr_export_check_options(good[i]), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* The escapes above are C's: make "\n" a real newline. */
		snprintf(buf, sizeof(buf), "%s", bad[i]);
		for (char *p = strstr(buf, "\\n"); p; p = strstr(p, "\\n")) {
			*p = '\n';
			memmove(p + 1, p + 2, strlen(p + 2) + 1);
		}
		if (nr_export_check_options(buf) != -EINVAL)
			fail_msg("accepted: '%s'", buf);
	}
}

static void entry__nfs_utils_limits(void **state)
{
	char path[1100], client[300], opts[400];

	(void)state;
	memset(path, 'a', sizeof(path));
	path[0] = '/';
	path[RC_EXPORT_PATH_MAX] = '\0';
	assert_int_equal(nr_export_check_entry(path, "*", "rw"), 0);
	path[RC_EXPORT_PATH_MAX] = 'a';
	path[RC_EXPORT_PATH_MAX + 1] = '\0';
	assert_int_equal(nr_export_check_entry(path, "*", "rw"), -ENAMETOOLONG);
	memset(client, 'h', 255);
	client[255] = '\0';
	assert_int_equal(nr_export_check_client(client), 0);
	/* client(options) of 511 bytes is the most exportfs reads (the
	 * limit is on length alone: the options need not be valid here). */
	memset(opts, 'r', sizeof(opts));
	opts[RC_EXPORT_TOKEN_MAX - 2 - 255] = '\0';
	assert_int_equal(nr_export_check_entry("/srv", client, opts), 0);
	strcat(opts, "r");
	assert_int_equal(nr_export_check_entry("/srv", client, opts), -E2BIG);
	client[256] = '\0';
	client[255] = 'h';
	assert_int_equal(nr_export_check_client(client), -EINVAL);
	/* exportfs would read "/srv/a\\101" back as "/srv/aA". */
	assert_int_equal(nr_export_check_entry("/srv/a\\101", "*", "rw"),
			 -EINVAL);
}

static void parse__refuses_what_exportfs_refuses(void **state)
{
	struct rc_export e[4];
	char line[2400];

	(void)state;
	assert_int_equal(rc_export_parse_line("/a h(rw", e, 4), -EINVAL);
	assert_int_equal(rc_export_parse_line("/a h(rw)x", e, 4), -EINVAL);
	assert_int_equal(rc_export_parse_line("/a h(rw) i(ro) j k", e, 2),
			 -ENOSPC);
	/* exportfs decodes escapes in every token, the client's too. */
	assert_int_equal(rc_export_parse_line("/a h\\050rw\\051", e, 4), 1);
	assert_string_equal(e[0].client, "h");
	assert_string_equal(e[0].options, "rw");
	memset(line, 'x', sizeof(line));
	line[0] = '/';
	line[1100] = '\0';
	assert_int_equal(rc_export_parse_line(line, e, 4), -E2BIG);
	snprintf(line, sizeof(line), "/a h(%0600d)", 0);
	assert_int_equal(rc_export_parse_line(line, e, 4), -E2BIG);
}

/* exportfs has no line limit; the loader reads lines of up to 1 MiB, more
 * than the table's entries can fill. */
static void file__long_lines_load_whole(void **state)
{
	struct rc_exports *t = NULL;
	char path[256], name[64];
	FILE *f;
	int i;

	(void)state;
	assert_int_equal(nr_exports_file_add("/srv/l", "h0", "rw"), 1);
	snprintf(path, sizeof(path), "%s%s", root, NR_EXPORTS_FILE);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("/srv/l", f);
	for (i = 0; i < 40; i++)
		fprintf(f,
			" host-%03d.with-a-rather-long-domain-name.lab(rw,"
			"sync,no_subtree_check,anonuid=65534,anongid=65534)",
			i);
	fputs(" \\\n  last(ro)\n", f);
	fclose(f);
	assert_int_equal(rc_exports_load(nr_test_root(), NR_EXPORTS_FILE, &t),
			 0);
	assert_int_equal(rc_exports_count(t), 41);
	snprintf(name, sizeof(name),
		 "host-039.with-a-rather-long-domain-name.lab");
	assert_string_equal(rc_exports_get(t, 39)->client, name);
	assert_string_equal(rc_exports_get(t, 40)->client, "last");
	assert_string_equal(rc_exports_get(t, 40)->options, "ro");
	rc_exports_delete(&t);
	assert_int_equal(nr_exports_file_del("/srv/l", NULL), 1);
}

/* A line longer than any the table could hold is refused, not read into
 * memory without end. */
static void file__line_beyond_1mib_refused(void **state)
{
	struct rc_exports *t = NULL;
	char path[256];
	FILE *f;
	int i;

	(void)state;
	snprintf(path, sizeof(path), "%s/etc/big.exports", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("/srv/big", f);
	for (i = 0; i < (RC_EXPORTS_LINE_MAX >> 4) + 1; i++)
		fputs("                ", f);
	fputs(" h(rw)\n", f);
	fclose(f);
	assert_int_equal(rc_exports_load(root, "/etc/big.exports", &t), -EFBIG);
	assert_null(t);
	/* The same line a little shorter loads. */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("/srv/big", f);
	for (i = 0; i < (RC_EXPORTS_LINE_MAX >> 4) - 16; i++)
		fputs("                ", f);
	fputs(" h(rw)\n", f);
	fclose(f);
	assert_int_equal(rc_exports_load(root, "/etc/big.exports", &t), 0);
	assert_int_equal(rc_exports_count(t), 1);
	rc_exports_delete(&t);
	unlink(path);
}

static void file__add_is_idempotent_and_escaped(void **state)
{
	char buf[4096];

	(void)state;
	assert_int_equal(
		nr_exports_file_add("/srv/a b", "198.18.0.0/24", "rw,sync"), 1);
	assert_int_equal(
		nr_exports_file_add("/srv/a b", "198.18.0.0/24", "rw,sync"), 0);
	assert_non_null(read_exports(buf, sizeof(buf)));
	assert_non_null(strstr(buf, "\n/srv/a\\040b 198.18.0.0/24(rw,sync)\n"));
	/* Same path and client: the options are replaced, not added. */
	assert_int_equal(
		nr_exports_file_add("/srv/a b", "198.18.0.0/24", "ro,sync"), 1);
	assert_int_equal(nr_exports_file_add("/srv/c", "*", "ro"), 1);
	read_exports(buf, sizeof(buf));
	assert_null(strstr(buf, "rw,sync"));
	assert_non_null(strstr(buf, "/srv/a\\040b 198.18.0.0/24(ro,sync)\n"));
	assert_non_null(strstr(buf, "/srv/c *(ro)\n"));
	assert_int_equal(nr_exports_file_del("/srv/a b", NULL), 1);
	assert_int_equal(nr_exports_file_del("/srv/a b", NULL), 0);
	read_exports(buf, sizeof(buf));
	assert_null(strstr(buf, "/srv/a"));
	assert_int_equal(nr_exports_file_del("/srv/c", NULL), 1);
}

static void file__load_reads_back_what_was_written(void **state)
{
	struct rc_exports *t = NULL;
	const struct rc_export *e;

	(void)state;
	assert_int_equal(
		nr_exports_file_add("/srv/x y#z", "fd18::/64", "rw,fsid=3"), 1);
	assert_int_equal(rc_exports_load(nr_test_root(), NR_EXPORTS_FILE, &t),
			 0);
	assert_int_equal(rc_exports_count(t), 1);
	e = rc_exports_get(t, 0);
	assert_string_equal(e->path, "/srv/x y#z");
	assert_string_equal(e->client, "fd18::/64");
	assert_string_equal(e->options, "rw,fsid=3");
	rc_exports_delete(&t);
	rc_exports_delete(&t);
	assert_int_equal(nr_exports_file_del("/srv/x y#z", NULL), 1);
}

/* A child rewrites the file in a loop and is killed at a random moment:
 * the file must then hold one of the two states, whole. */
static void file__killed_writer_leaves_whole_file(void **state)
{
	char buf[65536];
	int round, i;

	(void)state;
	srand((unsigned)time(NULL));
	for (round = 0; round < 20; round++) {
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			char p[64];

			for (;;) {
				for (i = 0; i < 40; i++) {
					snprintf(p, sizeof(p), "/srv/d%02d", i);
					nr_exports_file_add(p, "198.18.0.0/24",
							    "rw,sync");
				}
				for (i = 0; i < 40; i++) {
					snprintf(p, sizeof(p), "/srv/d%02d", i);
					nr_exports_file_del(p, NULL);
				}
			}
		}
		usleep(2000 + rand() % 30000);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		if (!read_exports(buf, sizeof(buf)))
			continue; /* killed before the first rename */
		/* Whole: header first, every line complete. */
		assert_int_equal(strncmp(buf, "# Managed by nfsrdma", 20), 0);
		assert_true(buf[strlen(buf) - 1] == '\n');
		for (char *l = strchr(buf, '\n') + 1; *l;
		     l = strchr(l, '\n') + 1) {
			assert_int_equal(strncmp(l, "/srv/d", 6), 0);
			assert_non_null(strstr(l, " 198.18.0.0/24(rw,sync)\n"));
		}
	}
	/* No temp files left behind by the survivors' renames. */
	for (i = 0; i < 40; i++) {
		char p[64];

		snprintf(p, sizeof(p), "/srv/d%02d", i);
		nr_exports_file_del(p, NULL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escape__space_hash_backslash),
		cmocka_unit_test(parse__roundtrips_escaped_path),
		cmocka_unit_test(client__accepts_valid_specs),
		cmocka_unit_test(client__rejects_bad_specs),
		cmocka_unit_test(options__validated_against_exports5),
		cmocka_unit_test(options__values_cannot_escape_the_list),
		cmocka_unit_test(entry__nfs_utils_limits),
		cmocka_unit_test(parse__refuses_what_exportfs_refuses),
		cmocka_unit_test(file__long_lines_load_whole),
		cmocka_unit_test(file__line_beyond_1mib_refused),
		cmocka_unit_test(file__add_is_idempotent_and_escaped),
		cmocka_unit_test(file__load_reads_back_what_was_written),
		cmocka_unit_test(file__killed_writer_leaves_whole_file),
	};

	rc_log_set_quiet(1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
