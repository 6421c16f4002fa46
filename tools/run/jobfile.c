// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "rc_file.h"
#include "run/jobfile.h"
#include "result/jobsection.h"
#include "rc_log.h"

static int sha256_hex(const char *data, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;

	if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen != 32)
		return -EIO;
	for (i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}

/* A job file is text a person wrote: megabytes at most. */
#define JOBFILE_MAX_BYTES (16 << 20)

static int read_job(const char *path, char **text, size_t *len)
{
	int ret = rc_file_read(path, text, len, JOBFILE_MAX_BYTES);

	if (ret == -EFBIG)
		rc_err("job file %s: larger than %d MiB, so it is not a fio job file (pass the .fio text file)",
		       path, JOBFILE_MAX_BYTES >> 20);
	else if (ret)
		rc_err("job file %s: cannot read it: %s (check the path)", path,
		       strerror(-ret));
	return ret;
}

static int record_one(const char *path, json_object *arr)
{
	json_object *o;
	char hex[65], *text;
	size_t len;
	int ret;

	ret = read_job(path, &text, &len);
	if (ret)
		return ret;
	if (strlen(text) != len) {
		rc_err("job file %s: contains NUL bytes, so it is not a fio job file (pass the .fio text file)",
		       path);
		free(text);
		return -EINVAL;
	}
	ret = sha256_hex(text, len, hex);
	if (ret) {
		rc_err("job file %s: sha256 failed in libcrypto", path);
		free(text);
		return ret;
	}
	o = json_object_new_object();
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "sha256", json_object_new_string(hex));
	json_object_object_add(o, "text",
			       json_object_new_string_len(text, (int)len));
	json_object_array_add(arr, o);
	free(text);
	return 0;
}

int rio_jobfiles_record(char *const paths[], int n, json_object **out)
{
	json_object *arr = json_object_new_array();
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = record_one(paths[i], arr);
		if (ret) {
			json_object_put(arr);
			return ret;
		}
	}
	*out = arr;
	return 0;
}

int rio_jobfile_sections(const char *path, struct rio_jobsection **out)
{
	char *text;
	int ret;

	*out = NULL;
	ret = read_job(path, &text, NULL);
	if (ret)
		return ret;
	ret = rio_jobsection_parse(text, out);
	free(text);
	return ret;
}

/* The first ${NAME} of line (len bytes) that the environment does not
 * set, copied into name; 0 when none. */
static int unset_var(const char *line, size_t len, char *name, size_t n)
{
	const char *p = line, *end = line + len, *v;
	size_t k;

	while ((p = memmem(p, (size_t)(end - p), "${", 2)) != NULL) {
		v = p + 2;
		for (k = 0; v + k < end &&
			    (isalnum((unsigned char)v[k]) || v[k] == '_');
		     k++)
			;
		p = v + k;
		if (!k || p >= end || *p != '}' || k >= n)
			continue;
		memcpy(name, v, k);
		name[k] = '\0';
		if (!getenv(name))
			return 1;
	}
	return 0;
}

/* 0, or -EINVAL after naming the file, its line and the variable. */
static int check_env(const char *path, const char *text)
{
	const char *line = text, *nl, *c;
	char name[256];
	int no = 1;

	for (; *line; line = nl + 1, no++) {
		nl = strchrnul(line, '\n');
		for (c = line; c < nl && isspace((unsigned char)*c); c++)
			;
		if (c < nl && *c != ';' && *c != '#' &&
		    unset_var(c, (size_t)(nl - c), name, sizeof(name))) {
			rc_err("job file %s, line %d: ${%s} is not set: fio refuses the whole file for it (it drops the job, then exits 1 without running any); set %s first (the file's header names its variables)",
			       path, no, name, name);
			return -EINVAL;
		}
		if (!*nl)
			break;
	}
	return 0;
}

int rio_jobfiles_check_env(char *const paths[], int n)
{
	char *text;
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = read_job(paths[i], &text, NULL);
		if (ret)
			return ret;
		ret = check_env(paths[i], text);
		free(text);
		if (ret)
			return ret;
	}
	return 0;
}
