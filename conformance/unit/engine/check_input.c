/*
 * conformance/unit/engine/check_input.c: reading inputs within their limits
 * (engine/input.h): each kind's size limit as README's "Inputs and their
 * limits" states it, a file of exactly the limit read and one byte more
 * refused before a byte is read, a stream stopped one byte past its limit,
 * what is not a regular file named, and the text helpers beside them. The
 * limits are README's MiB worked out by hand (16 MiB = 16 * 1048576 =
 * 16777216 bytes); the escapes are the printable ASCII range 0x20..0x7e.
 */
#define _GNU_SOURCE /* fmemopen */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_suites.h"
#include "input.h"

/* A fresh directory for one test's files (removed by rm_dir). */
static void make_dir(char dir[32])
{
    strcpy(dir, "/tmp/ntsim_input_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* A file of `size` zero bytes (sparse: nothing is written). */
static void sparse_file(const char *path, uint64_t size)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ftruncate(fileno(f), (off_t)size), 0);
    ck_assert_int_eq(fclose(f), 0);
}

/* README, "Inputs and their limits": a vector file 16 MiB, a scenario file
 * 1 MiB, the facts and decisions 4 MiB, an NTFF to decode 256 MiB. A file of
 * the limit passes the check made before reading; one byte more is refused
 * with its size and the limit. A kind past the list has no limit. */
START_TEST(test_input_limits_are_the_readme_table)
{
    static const struct {
        ntsim_input_kind_t kind;
        uint64_t limit;
    } kinds[] = {
        {NTSIM_INPUT_VECTOR, 16777216},   /* 16 * 1048576 */
        {NTSIM_INPUT_SCENARIO, 1048576},  /* 1 MiB */
        {NTSIM_INPUT_DOC, 4194304},       /* 4 * 1048576 */
        {NTSIM_INPUT_NTFF, 268435456},    /* 256 * 1048576 */
    };
    ck_assert_uint_eq(sizeof kinds / sizeof kinds[0], NTSIM_INPUT_KIND_COUNT);
    char dir[32], path[64], err[256], want[256];
    make_dir(dir);
    snprintf(path, sizeof path, "%s/input", dir);
    for (size_t k = 0; k < NTSIM_INPUT_KIND_COUNT; k++) {
        ck_assert_uint_eq(ntsim_input_limit(kinds[k].kind), kinds[k].limit);
        sparse_file(path, kinds[k].limit + 1);
        char *text = NULL;
        size_t len = 0;
        ck_assert_int_eq(ntsim_read_input(path, kinds[k].kind, &text, &len, err, sizeof err),
                         NRT_INVALID);
        snprintf(want, sizeof want, "file too large (%llu bytes, limit %llu)",
                 (unsigned long long)kinds[k].limit + 1, (unsigned long long)kinds[k].limit);
        ck_assert_str_eq(err, want);
        ck_assert_ptr_null(text);
        sparse_file(path, kinds[k].limit);
        uint64_t size = 0;
        FILE *f = ntsim_open_input(path, ntsim_input_limit(kinds[k].kind), &size, err, sizeof err);
        ck_assert_msg(f != NULL, "kind %zu: %s", k, err);
        ck_assert_uint_eq(size, kinds[k].limit);
        fclose(f);
    }
    ck_assert_uint_eq(ntsim_input_limit(NTSIM_INPUT_KIND_COUNT), SIZE_MAX);
    /* The scenario file of exactly 1 MiB is read whole, its NUL after it. */
    char *text = NULL;
    size_t len = 0;
    sparse_file(path, 1048576);
    ck_assert_msg(ntsim_read_input(path, NTSIM_INPUT_SCENARIO, &text, &len, err, sizeof err) ==
                      NRT_SUCCESS,
                  "%s", err);
    ck_assert_uint_eq(len, 1048576);
    ck_assert_int_eq(text[0] | text[len - 1] | text[len], 0);
    free(text);
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A directory, a character device, a FIFO and a missing file are refused
 * with what each is, before a byte is read (a FIFO without a writer does
 * not block the open). */
START_TEST(test_input_open_names_what_is_not_a_regular_file)
{
    char dir[32], fifo[64], missing[64], err[256];
    uint64_t size = 7;
    make_dir(dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(missing, sizeof missing, "%s/missing", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    const struct {
        const char *path, *want;
    } cases[] = {
        {dir, "not a regular file (a directory)"},
        {"/dev/null", "not a regular file (a character device)"},
        {fifo, "not a regular file (a FIFO)"},
        {missing, "cannot open: No such file or directory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_ptr_null(ntsim_open_input(cases[i].path, SIZE_MAX, &size, err, sizeof err));
        ck_assert_str_eq(err, cases[i].want);
        char *text = NULL;
        size_t len = 0;
        ck_assert_int_eq(ntsim_read_input(cases[i].path, NTSIM_INPUT_VECTOR, &text, &len, err,
                                          sizeof err),
                         NRT_INVALID);
        ck_assert_str_eq(err, cases[i].want);
    }
    ck_assert_uint_eq(size, 7); /* untouched on refusal */
    ck_assert_int_eq(remove(fifo), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Every block device under /dev that opens is named as one (a loop device
 * opens without a backing file; one that cannot be opened says so). */
START_TEST(test_input_open_names_a_block_device)
{
    DIR *d = opendir("/dev");
    ck_assert_ptr_nonnull(d);
    size_t named = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[300], err[256];
        struct stat sb;
        uint64_t size;
        snprintf(path, sizeof path, "/dev/%s", e->d_name);
        if (lstat(path, &sb) != 0 || !S_ISBLK(sb.st_mode))
            continue;
        FILE *f = ntsim_open_input(path, SIZE_MAX, &size, err, sizeof err);
        ck_assert_ptr_null(f);
        if (strncmp(err, "cannot open: ", 13) == 0)
            continue;
        ck_assert_msg(strcmp(err, "not a regular file (a block device)") == 0, "%s: %s", path,
                      err);
        named++;
    }
    closedir(d);
    ck_assert_msg(named > 0, "no block device under /dev could be opened");
}
END_TEST

/* With stdin closed, the file opened is descriptor 0, and that is a file
 * like any other. */
START_TEST(test_input_open_takes_descriptor_zero)
{
    char dir[32], path[64], err[256] = "";
    make_dir(dir);
    snprintf(path, sizeof path, "%s/input", dir);
    sparse_file(path, 3);
    fflush(stdin);
    int saved = dup(STDIN_FILENO);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_eq(close(STDIN_FILENO), 0);
    uint64_t size = 0;
    FILE *f = ntsim_open_input(path, 3, &size, err, sizeof err);
    int fd = f != NULL ? fileno(f) : -1;
    if (f != NULL)
        fclose(f);
    ck_assert_int_eq(dup2(saved, STDIN_FILENO), STDIN_FILENO);
    close(saved);
    ck_assert_msg(fd == 0, "descriptor %d: %s", fd, err);
    ck_assert_uint_eq(size, 3);
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The limits are process-wide, so this runs in a child: after
 * --max-input-bytes N (ntsim_input_set_limit_all) every kind's limit is N,
 * and a file of N + 1 bytes of any kind is refused. */
static int set_all_and_check(const char *path)
{
    ntsim_input_set_limit_all(100);
    for (int k = 0; k < NTSIM_INPUT_KIND_COUNT; k++) {
        char err[256], *text = NULL;
        size_t len;
        if (ntsim_input_limit((ntsim_input_kind_t)k) != 100)
            return 10 + k;
        if (ntsim_read_input(path, (ntsim_input_kind_t)k, &text, &len, err, sizeof err) !=
                NRT_INVALID ||
            strcmp(err, "file too large (101 bytes, limit 100)") != 0)
            return 20 + k;
    }
    return ntsim_input_limit(NTSIM_INPUT_KIND_COUNT) == SIZE_MAX ? 0 : 30;
}

START_TEST(test_input_set_limit_all_sets_every_kind)
{
    char dir[32], path[64];
    make_dir(dir);
    snprintf(path, sizeof path, "%s/input", dir);
    sparse_file(path, 101);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(set_all_and_check(path));
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A stream is read to its end when it holds at most `limit` bytes, however
 * its size falls against the buffer's growth (8192, then doubling, one byte
 * kept for the NUL); one byte more than the limit is NRT_INVALID. No limit
 * (SIZE_MAX) reads everything. */
START_TEST(test_input_read_stream_stops_one_byte_past_the_limit)
{
    static const size_t sizes[] = {0, 1, 8190, 8191, 8192, 8193, 16383, 16384, 40000};
    enum { MOST = 40000 };
    char *data = malloc(MOST);
    ck_assert_ptr_nonnull(data);
    for (size_t i = 0; i < MOST; i++)
        data[i] = (char)('a' + i % 26);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        const size_t limits[] = {n, n + 1, SIZE_MAX, n - 1};
        for (size_t l = 0; l < (n > 0 ? 4u : 3u); l++) {
            /* fmemopen refuses a size of 0: one byte, read as none with "r" at 0. */
            FILE *f = fmemopen(data, n > 0 ? n : 1, "rb");
            ck_assert_ptr_nonnull(f);
            if (n == 0)
                ck_assert_int_eq(fseek(f, 1, SEEK_SET), 0);
            char *out = (char *)"untouched";
            size_t len = 12345;
            NRT_STATUS st = ntsim_read_stream(f, limits[l], &out, &len);
            fclose(f);
            if (l == 3) {
                ck_assert_int_eq(st, NRT_INVALID);
                ck_assert_str_eq(out, "untouched");
                ck_assert_uint_eq(len, 12345);
                continue;
            }
            ck_assert_msg(st == NRT_SUCCESS, "size %zu limit %zu: %d", n, limits[l], (int)st);
            ck_assert_uint_eq(len, n);
            ck_assert_mem_eq(out, data, n);
            ck_assert_int_eq(out[n], '\0');
            free(out);
        }
    }
    free(data);
}
END_TEST

/* Text from outside as a message shows it: printable ASCII (0x20..0x7e) as
 * itself, every other byte as \xNN, at most max bytes and then "...". The
 * worst case fills exactly the 4 * max + 4 bytes the contract asks for. */
START_TEST(test_input_text_escape_shows_printable_ascii_only)
{
    static const struct {
        const char *in;
        size_t len, max;
        const char *want;
    } cases[] = {
        {"\x1f\x20\x21~\x7f\x80\xff", 7, 7, "\\x1f !~\\x7f\\x80\\xff"},
        {"a\nb", 3, 3, "a\\x0ab"},
        {"abcd", 4, 4, "abcd"},
        {"abcde", 5, 4, "abcd..."},
        {"\x01\x02\x03\x04", 4, 3, "\\x01\\x02\\x03..."},
        {"a\0b", 3, 40, "a\\x00b"},
        {"", 0, 40, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t cap = 4 * cases[i].max + 4;
        char *out = malloc(cap); /* exactly the contract's size: ASan sees a byte more */
        ck_assert_ptr_nonnull(out);
        ck_assert_ptr_eq(ntsim_text_escape(cases[i].in, cases[i].len, cases[i].max, out), out);
        ck_assert_str_eq(out, cases[i].want);
        free(out);
    }
}
END_TEST

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = ntsim_vformat(fmt, ap);
    va_end(ap);
    return s;
}

/* The string helpers: a copy, a formatted string of its whole length, and
 * whether a text ends with another (itself included). */
START_TEST(test_input_string_helpers)
{
    char *from = malloc(4); /* exactly "abc" and its NUL: ASan sees a byte more read */
    ck_assert_ptr_nonnull(from);
    memcpy(from, "abc", 4);
    char *s = ntsim_strdup(from);
    free(from);
    ck_assert_str_eq(s, "abc");
    free(s);
    s = format("%d-%s-%c", 42, "xyz", 'q');
    ck_assert_str_eq(s, "42-xyz-q");
    free(s);
    s = format("%s", "");
    ck_assert_str_eq(s, "");
    free(s);
    static const struct {
        const char *s, *tail;
        bool want;
    } ends[] = {
        {"trace.json", ".json", true}, {"abc", "abc", true}, {"abc", "", true},
        {"", "", true},                {"bc", "abc", false}, {"abc", "ab", false},
    };
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        ck_assert_msg(ntsim_ends_with(ends[i].s, ends[i].tail) == ends[i].want, "'%s' '%s'",
                      ends[i].s, ends[i].tail);
}
END_TEST

Suite *make_input_suite(void)
{
    Suite *s = suite_create("input");
    TCase *tc = tcase_create("input");
    tcase_add_test(tc, test_input_limits_are_the_readme_table);
    tcase_add_test(tc, test_input_open_names_what_is_not_a_regular_file);
    tcase_add_test(tc, test_input_open_names_a_block_device);
    tcase_add_test(tc, test_input_open_takes_descriptor_zero);
    tcase_add_test(tc, test_input_set_limit_all_sets_every_kind);
    tcase_add_test(tc, test_input_read_stream_stops_one_byte_past_the_limit);
    tcase_add_test(tc, test_input_text_escape_shows_printable_ascii_only);
    tcase_add_test(tc, test_input_string_helpers);
    suite_add_tcase(s, tc);
    return s;
}
