// SPDX-License-Identifier: MIT
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
