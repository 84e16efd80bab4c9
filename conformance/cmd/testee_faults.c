/*
 * conformance/cmd/testee_faults.c: the faults `ntsim testee --break=LIST`
 * injects (cli.h), for the tests of the runner's verdicts on a broken
 * testee (check_testee.c, testee_check.sh). The engine's answers stay the
 * engine's: a wrong answer is made here, from a right one, after the fact.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "nrt/nrt_sys_trace_event.h"
#include "testee_msg.h"

static bool parse_count(const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '1' || text[0] > '9' || *end != '\0' || errno != 0)
        return false;
    *out = v;
    return true;
}

/* One "name" or "name=N". */
static bool parse_one(char *item, ntsim_testee_faults_t *f)
{
    static const struct {
        const char *name;
        size_t offset;
    } counted[] = {
        {"crash", offsetof(ntsim_testee_faults_t, crash_at)},
        {"hang", offsetof(ntsim_testee_faults_t, hang_at)},
        {"exit", offsetof(ntsim_testee_faults_t, exit_at)},
        {"garbage", offsetof(ntsim_testee_faults_t, garbage_at)},
        {"disorder", offsetof(ntsim_testee_faults_t, disorder_at)},
        {"close_stdout", offsetof(ntsim_testee_faults_t, close_stdout_at)},
    };
    char *eq = strchr(item, '=');
    if (eq != NULL && strncmp(item, "flood=", 6) == 0)
        return ntsim_testee_flood_parse(eq + 1, f);
    if (eq != NULL && strncmp(item, "omit=", 5) == 0) {
        snprintf(f->omit, sizeof f->omit, "%s", eq + 1);
        return eq[1] != '\0' && strlen(eq + 1) < sizeof f->omit;
    }
    if (eq == NULL) {
        bool *flag = strcmp(item, "json_key_order") == 0        ? &f->json_key_order
                     : strcmp(item, "record_byte") == 0         ? &f->record_byte
                     : strcmp(item, "enum_value") == 0          ? &f->enum_value
                     : strcmp(item, "forge") == 0               ? &f->forge
                     : strcmp(item, "helper") == 0              ? &f->helper
                     : strcmp(item, "escape") == 0              ? &f->escape
                     : strcmp(item, "fds") == 0                 ? &f->fds
                     : strcmp(item, "empty") == 0               ? &f->empty
                     : strcmp(item, "overwrite_count") == 0     ? &f->overwrite_count
                     : strcmp(item, "json_key_order_rare") == 0 ? &f->json_key_order_rare
                     : strcmp(item, "escape_1e") == 0           ? &f->escape_1e
                     : strcmp(item, "nul_names") == 0           ? &f->nul_names
                     : strcmp(item, "stdout_forge") == 0        ? &f->stdout_forge
                     : strcmp(item, "reword") == 0              ? &f->reword
                     : strcmp(item, "log_unlisted") == 0        ? &f->log_unlisted
                     : strcmp(item, "no_body") == 0             ? &f->no_body
                     : strcmp(item, "oom_leak") == 0            ? &f->oom_leak
                                                                : NULL;
        if (flag != NULL)
            *flag = true;
        return flag != NULL;
    }
    *eq = '\0';
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++)
        if (strcmp(item, counted[i].name) == 0)
            return parse_count(eq + 1, (uint64_t *)(void *)((char *)f + counted[i].offset));
    return false;
}

bool ntsim_testee_faults_parse(const char *list, ntsim_testee_faults_t *f, char *why,
                               size_t cap)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item != NULL;
         item = strtok_r(NULL, ",", &save)) {
        char shown[128];
        snprintf(shown, sizeof shown, "%s", item);
        if (!parse_one(item, f)) {
            snprintf(why, cap, "'%s' is not a fault (json_key_order, record_byte, enum_value, "
                               "forge, empty, fds, helper, escape, nul_names, stdout_forge, overwrite_count, "
                               "json_key_order_rare, escape_1e, reword, log_unlisted, no_body, oom_leak, "
                               "crash=N, hang=N, "
                               "exit=N, garbage=N, "
                               "disorder=N, close_stdout=N, omit=FIELD, flood=log|unknown|fields|records|"
                               "emits|json)",
                     shown);
            return false;
        }
    }
    return true;
}

static void sleep_s(time_t s)
{
    struct timespec ts = {s, 0};
    (void)nanosleep(&ts, NULL); /* a signal ends it early: the runner's SIGKILL */
}

/* "ntsim testee: open descriptors: 0 1 2", in order, on stderr (the
 * listing's own descriptor left out). */
static void list_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) {
        fprintf(stderr, "ntsim testee: open descriptors: unknown (no /proc/self/fd)\n");
        return;
    }
    bool is_open[1024] = {false};
    int more = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || fd == dirfd(d))
            continue;
        if (fd < 1024)
            is_open[fd] = true;
        else
            more++;
    }
    (void)closedir(d);
    fprintf(stderr, "ntsim testee: open descriptors:");
    for (int fd = 0; fd < 1024; fd++)
        if (is_open[fd])
            fprintf(stderr, " %d", fd);
    if (more > 0)
        fprintf(stderr, " and %d above 1023", more);
    fprintf(stderr, "\n");
}

/* stdout_forge: a line of the runner's summary written through its stdout
 * as /proc shows it to its children, and on stderr what came of it. */
static void forge_stdout(void)
{
    static const char line[] = "conformance: 9999 passed, 0 failed, 0 skipped (forged)\n";
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/1", (long)getppid());
    int fd = open(path, O_WRONLY | O_APPEND);
    if (fd < 0) {
        fprintf(stderr, "ntsim testee: stdout_forge: cannot open the runner's stdout: %s\n",
                strerror(errno));
        return;
    }
    bool wrote = write(fd, line, sizeof line - 1) == (ssize_t)(sizeof line - 1);
    (void)close(fd); /* a forgery: what it loses does not matter */
    fprintf(stderr, "ntsim testee: stdout_forge: %s the runner's stdout\n",
            wrote ? "wrote into" : "could not write into");
}

void ntsim_testee_faults_start(const ntsim_testee_faults_t *f)
{
    if (f->fds)
        list_fds();
    if (f->stdout_forge)
        forge_stdout();
    if (!f->helper && !f->escape)
        return;
    /* What a wrapper script's background job does: holds the testee's
     * stdin and stdout (inherited). The testee answers nothing before the
     * helper is in place (has left the group, said its pid): a runner that
     * ends the testee at once must still find it there. */
    int ready[2];
    if (pipe(ready) != 0)
        return; /* no helper: the test that asked for one sees no pid */
    pid_t pid = fork();
    if (pid == 0) {
        (void)close(ready[0]);
        if (f->escape)
            (void)setsid(); /* out of the testee's process group */
        fprintf(stderr, "ntsim testee: helper %ld%s\n", (long)getpid(),
                f->escape ? " (in a session of its own)" : "");
        (void)close(ready[1]); /* the testee's read below ends */
        for (int i = 0; i < 30; i++)
            sleep_s(1);
        _exit(0);
    }
    (void)close(ready[1]);
    char byte;
    while (pid > 0 && read(ready[0], &byte, 1) < 0 && errno == EINTR)
        ; /* 0: the helper is in place */
    (void)close(ready[0]);
}

void ntsim_testee_faults_before(const ntsim_testee_faults_t *f, uint64_t n)
{
    if (n == f->exit_at)
        exit(3);
    if (n == f->crash_at) {
        struct rlimit none = {0, 0};
        (void)setrlimit(RLIMIT_CORE, &none); /* a test's crash leaves no core file */
        (void)signal(SIGSEGV, SIG_DFL);      /* not a sanitizer's handler: a plain crash */
        (void)raise(SIGSEGV);
    }
    if (n == f->close_stdout_at)
        (void)close(STDOUT_FILENO); /* and stays, below, until the runner kills it */
    while (n == f->hang_at || n == f->close_stdout_at)
        sleep_s(60); /* until the runner kills it */
}

/* Every event's first two keys swapped: "phase":"X","event_type":"Y". */
static void swap_first_keys(ProtobufCBinaryData *doc)
{
    static const char k1[] = "{\"event_type\":\"", k2[] = ",\"phase\":\"";
    char *text = (char *)doc->data, *end = text + doc->len;
    for (char *p = text; (size_t)(end - p) > sizeof k1; p++) {
        if (memcmp(p, k1, sizeof k1 - 1) != 0)
            continue;
        char *v1 = p + sizeof k1 - 1, *q1 = memchr(v1, '"', (size_t)(end - v1));
        if (q1 == NULL || (size_t)(end - q1) <= sizeof k2 || memcmp(q1 + 1, k2, sizeof k2 - 1))
            continue;
        char *v2 = q1 + sizeof k2, *q2 = memchr(v2, '"', (size_t)(end - v2));
        if (q2 == NULL)
            continue;
        /* {"event_type":"A","phase":"B" -> {"phase":"B","event_type":"A" */
        size_t la = (size_t)(q1 - v1), lb = (size_t)(q2 - v2), n = (size_t)(q2 + 1 - p);
        char tmp[512];
        int w = snprintf(tmp, sizeof tmp, "{\"phase\":\"%.*s\",\"event_type\":\"%.*s\"",
                         (int)lb, v2, (int)la, v1);
        if (w > 0 && (size_t)w == n)
            memcpy(p, tmp, n);
        p += n - 1;
    }
}

/* omit=FIELD: where a field of that name is in the reply's body, what
 * it held, so that it can be put back before protobuf-c frees the reply. */
typedef struct omitted {
    void *at;        /* the member: a pointer, a count or a has_ flag */
    size_t value;    /* what it held */
    size_t size;     /* sizeof the member */
} omitted_t;

/* Leaves out field `name` of the reply's body: an optional scalar's has_
 * flag, an optional message's pointer, a repeated field's count. */
static void omit_field(const char *name, NtsimTestee__Response *m, omitted_t *o)
{
    memset(o, 0, sizeof *o);
    const ProtobufCFieldDescriptor *bf =
        protobuf_c_message_descriptor_get_field(&ntsim_testee__response__descriptor,
                                                (unsigned)m->body_case);
    if (name[0] == '\0' || bf == NULL || bf->type != PROTOBUF_C_TYPE_MESSAGE)
        return;
    ProtobufCMessage *body;
    memcpy(&body, (char *)m + bf->offset, sizeof body);
    const ProtobufCFieldDescriptor *fd =
        protobuf_c_message_descriptor_get_field_by_name(body->descriptor, name);
    if (fd == NULL || fd->label == PROTOBUF_C_LABEL_REQUIRED)
        return;
    if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
        o->at = (char *)body + fd->quantifier_offset;
        o->size = sizeof(size_t);
    } else if (fd->type == PROTOBUF_C_TYPE_MESSAGE || fd->type == PROTOBUF_C_TYPE_STRING) {
        o->at = (char *)body + fd->offset;
        o->size = sizeof(void *);
    } else {
        o->at = (char *)body + fd->quantifier_offset;
        o->size = sizeof(protobuf_c_boolean);
    }
    memcpy(&o->value, o->at, o->size);
    memset(o->at, 0, o->size);
}

static void omit_undo(const omitted_t *o)
{
    if (o->at != NULL)
        memcpy(o->at, &o->value, o->size);
}

/* overwrite_count: the off-by-one of a ring that computes its evictions
 * with a power-of-two mask it does not have. */
static void fewer_overwrites(NtsimTestee__NcStats *s)
{
    if (s != NULL && s->overwritten > 0 && (s->capacity & (s->capacity - 1)) != 0)
        s->overwritten--;
}

/* json_key_order_rare: in every nrt_async_sema_wait START event,
 * "available_request_slots":A,"has_work":B becomes "has_work":B,
 * "available_request_slots":A (the same length: the document's size and
 * written_size stay right). */
static void swap_rare_keys(uint8_t *doc, size_t len)
{
    static const char ev[] = "\"event_type\":\"nrt_async_sema_wait\",\"phase\":\"start\"";
    static const char k1[] = "\"data\":{\"available_request_slots\":", k2[] = ",\"has_work\":";
    char *text = (char *)doc, *end = text + len;
    for (char *p = text; (size_t)(end - p) > sizeof ev; p++) {
        if (memcmp(p, ev, sizeof ev - 1) != 0)
            continue;
        char *d = p;
        while ((size_t)(end - d) > sizeof k1 && memcmp(d, k1, sizeof k1 - 1) != 0 && *d != '}')
            d++;
        if ((size_t)(end - d) <= sizeof k1 || memcmp(d, k1, sizeof k1 - 1) != 0)
            continue;
        char *v1 = d + sizeof k1 - 1, *c = v1;
        while (c < end && *c != ',')
            c++;
        if ((size_t)(end - c) <= sizeof k2 || memcmp(c, k2, sizeof k2 - 1) != 0)
            continue;
        char *v2 = c + sizeof k2 - 1, *close = v2;
        while (close < end && *close != '}')
            close++;
        if (close == end)
            continue;
        char tmp[256];
        int w = snprintf(tmp, sizeof tmp, "\"data\":{\"has_work\":%.*s,\"available_request_slots\":%.*s",
                         (int)(close - v2), v2, (int)(c - v1), v1);
        if (w > 0 && (size_t)w == (size_t)(close - d))
            memcpy(d, tmp, (size_t)w);
        p = close;
    }
}

/* escape_1e: "\u001e" written "\u001E". */
static void upper_1e(uint8_t *doc, size_t len)
{
    for (size_t i = 0; i + 6 <= len; i++)
        if (memcmp(doc + i, "\\u001e", 6) == 0)
            doc[i + 5] = 'E';
}

static void break_document(const ntsim_testee_faults_t *f, uint8_t *doc, size_t len)
{
    if (f->json_key_order_rare)
        swap_rare_keys(doc, len);
    if (f->escape_1e)
        upper_1e(doc, len);
}

/* nul_names: every string of the message, at any depth, with "\0junk"
 * appended. protobuf-c packs a string by strlen, so it is given "\x1fjunk"
 * here (malloc'd, as protobuf-c frees it) and the packed bytes get their
 * NUL after (nul_mark). */
#define NUL_MARK "\x1fjunk"
static bool add_nul_marks(ProtobufCMessage *m)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *fd = &d->fields[i];
        char *at = (char *)m + fd->offset;
        size_t n = 1;
        uint32_t member;
        memcpy(&member, (char *)m + fd->quantifier_offset, sizeof member);
        if ((fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0 && member != fd->id)
            continue; /* a oneof's members share one place: only the one set is there */
        if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
            memcpy(&n, (char *)m + fd->quantifier_offset, sizeof n);
            char *array;
            memcpy(&array, at, sizeof array); /* the member holds the array's address */
            at = array;
        }
        for (size_t k = 0; k < n && at != NULL; k++) {
            if (fd->type == PROTOBUF_C_TYPE_MESSAGE) {
                ProtobufCMessage *sub;
                memcpy(&sub, at + k * sizeof sub, sizeof sub);
                if (sub != NULL && !add_nul_marks(sub))
                    return false;
            } else if (fd->type == PROTOBUF_C_TYPE_STRING) {
                char *old;
                memcpy(&old, at + k * sizeof old, sizeof old);
                if (old == NULL)
                    continue;
                char *mark = malloc(strlen(old) + sizeof NUL_MARK);
                if (mark == NULL)
                    return false;
                memcpy(mark, old, strlen(old));
                memcpy(mark + strlen(old), NUL_MARK, sizeof NUL_MARK);
                memcpy(at + k * sizeof mark, &mark, sizeof mark);
                if (old != fd->default_value)
                    free(old);
            }
        }
    }
    return true;
}

/* The marks of add_nul_marks in packed bytes, each made "\0junk". */
static void nul_mark(uint8_t *bytes, size_t len)
{
    for (size_t i = 0; i + sizeof NUL_MARK - 1 <= len; i++)
        if (memcmp(bytes + i, NUL_MARK, sizeof NUL_MARK - 1) == 0)
            bytes[i] = '\0';
}

/* oom_leak: a call that ran out of memory and kept one block of the
 * allocator's, as a port's out-of-memory path that forgets one free reports
 * it (the engine's own keeps none, D-ALLOCATOR). */
static void leak_one_block(NtsimTestee__ApiReply *m)
{
    if (m->has_status && m->status == NRT_RESOURCE && m->has_blocks_kept)
        m->blocks_kept++;
}

static void break_reply(const ntsim_testee_faults_t *f, NtsimTestee__Response *m)
{
    if (f->oom_leak && m->body_case == NTSIM_TESTEE__RESPONSE__BODY_API)
        leak_one_block(m->api);
    if (f->overwrite_count && m->body_case == NTSIM_TESTEE__RESPONSE__BODY_RECORD)
        fewer_overwrites(m->record->stats);
    if (f->overwrite_count && m->body_case == NTSIM_TESTEE__RESPONSE__BODY_API)
        fewer_overwrites(m->api->stats);
    if (m->body_case == NTSIM_TESTEE__RESPONSE__BODY_JSON && m->json->has_document)
        break_document(f, m->json->document.data, m->json->document.len);
    if (m->body_case == NTSIM_TESTEE__RESPONSE__BODY_API && m->api->has_buffer)
        break_document(f, m->api->buffer.data, m->api->buffer.len);
    if (f->json_key_order && m->body_case == NTSIM_TESTEE__RESPONSE__BODY_JSON &&
        m->json->has_document)
        swap_first_keys(&m->json->document);
    if (f->record_byte && m->body_case == NTSIM_TESTEE__RESPONSE__BODY_RECORD)
        for (size_t i = 0; i < m->record->n_records; i++)
            if (m->record->records[i].len == sizeof(nrt_sys_trace_event_t))
                m->record->records[i].data[offsetof(nrt_sys_trace_event_t, thread_id)] ^= 1;
    if (f->enum_value && m->body_case == NTSIM_TESTEE__RESPONSE__BODY_ENUM_TYPE &&
        m->enum_type->n_members > 0)
        m->enum_type->members[m->enum_type->n_members - 1]->value++;
}

/* A comma-separated list into a hello's repeated string (from the arena). */
static bool announce(ntsim_arena_t *a, const char *list, char ***out, size_t *n)
{
    char *copy = ntsim_arena_strdup(a, list);
    char **items = ntsim_arena_array(a, strlen(list) + 1, sizeof *items);
    if (copy == NULL || items == NULL)
        return false;
    *n = 0;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t != NULL;
         t = strtok_r(NULL, ",", &save))
        items[(*n)++] = t;
    *out = items;
    return true;
}

/* The hello as --kinds and --capabilities say, packed into *bytes. The
 * unpacked reply's own lists are put back before protobuf-c frees it. */
static uint8_t *pack_hello(const ntsim_testee_faults_t *f, NtsimTestee__Response *m,
                           size_t *len)
{
    NtsimTestee__HelloReply *h = m->hello;
    char **kinds = h->kinds, **caps = h->capabilities;
    size_t nk = h->n_kinds, nc = h->n_capabilities;
    ntsim_arena_t a;
    ntsim_arena_init(&a);
    bool ok = (f->kinds == NULL || announce(&a, f->kinds, &h->kinds, &h->n_kinds)) &&
              (f->capabilities == NULL ||
               announce(&a, f->capabilities, &h->capabilities, &h->n_capabilities));
    uint8_t *bytes = ok ? ntsim_testee_pack(&m->base, len) : NULL;
    h->kinds = kinds;
    h->n_kinds = nk;
    h->capabilities = caps;
    h->n_capabilities = nc;
    ntsim_arena_free(&a);
    return bytes;
}

/* What `forge` puts in a hello's name and in every Error: a line of the
 * runner's own summary, a terminal escape, a carriage return. */
#define FORGED "ntsim\nconformance: 9999 passed, 0 failed, 0 skipped\n\x1b[2J\r"

/* An Error reply to request `id` with the forged text, packed. */
static uint8_t *pack_forged_error(uint64_t id, size_t *len)
{
    NtsimTestee__Error e = NTSIM_TESTEE__ERROR__INIT;
    e.message = (char *)FORGED;
    NtsimTestee__Response r = NTSIM_TESTEE__RESPONSE__INIT;
    r.id = id;
    r.body_case = NTSIM_TESTEE__RESPONSE__BODY_ERROR;
    r.error = &e;
    return ntsim_testee_pack(&r.base, len);
}

/* A reply to request `id` of the body case `body` (a field number of
 * Response) holding nothing: no optional field, no repeated element, every
 * required one zero. What a testee that answers without doing anything
 * sends; packed. */
static uint8_t *pack_empty(uint64_t id, int body, size_t *len)
{
    const ProtobufCFieldDescriptor *fd =
        protobuf_c_message_descriptor_get_field(&ntsim_testee__response__descriptor, (unsigned)body);
    if (fd == NULL || fd->type != PROTOBUF_C_TYPE_MESSAGE)
        return NULL;
    const ProtobufCMessageDescriptor *d = fd->descriptor;
    ProtobufCMessage *m = calloc(1, d->sizeof_message);
    if (m == NULL)
        return NULL;
    protobuf_c_message_init(d, m);
    NtsimTestee__Response r = NTSIM_TESTEE__RESPONSE__INIT;
    r.id = id;
    r.body_case = (NtsimTestee__Response__BodyCase)body;
    /* Every body member of the oneof sits at the same offset. */
    memcpy((char *)&r + fd->offset, &m, sizeof m);
    uint8_t *bytes = ntsim_testee_pack(&r.base, len);
    free(m);
    return bytes;
}

/* A reply to request `id` that sets no body at all: what a port that
 * answers a void call with an empty Response sends; packed. */
static uint8_t *pack_no_body(uint64_t id, size_t *len)
{
    NtsimTestee__Response r = NTSIM_TESTEE__RESPONSE__INIT;
    r.id = id;
    return ntsim_testee_pack(&r.base, len);
}

NRT_STATUS ntsim_testee_faults_apply(const ntsim_testee_faults_t *f, uint64_t n, uint8_t **resp,
                                     size_t *len)
{
    if (n == f->garbage_at) {
        static const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff, 0xff};
        uint8_t *g = malloc(sizeof garbage);
        if (g == NULL)
            return NRT_RESOURCE;
        memcpy(g, garbage, sizeof garbage);
        free(*resp);
        *resp = g;
        *len = sizeof garbage;
        return NRT_SUCCESS;
    }
    if (!f->json_key_order && !f->record_byte && !f->enum_value && !f->forge && !f->empty &&
        f->omit[0] == '\0' && !f->overwrite_count && !f->json_key_order_rare && !f->escape_1e &&
        !f->nul_names && !f->reword && !f->log_unlisted && !f->no_body && !f->oom_leak &&
        n != f->disorder_at &&
        f->kinds == NULL && f->capabilities == NULL)
        return NRT_SUCCESS;
    NtsimTestee__Response *m = ntsim_testee__response__unpack(NULL, *len, *resp);
    if (m == NULL)
        return NRT_RESOURCE; /* our own response: only memory can fail */
    break_reply(f, m);
    bool names = f->nul_names && (m->body_case == NTSIM_TESTEE__RESPONSE__BODY_LAYOUT ||
                                  m->body_case == NTSIM_TESTEE__RESPONSE__BODY_ENUM_TYPE ||
                                  m->body_case == NTSIM_TESTEE__RESPONSE__BODY_EVENT_TYPE);
    if ((names && !add_nul_marks(&m->base)) || !ntsim_testee_reword_reply(f, m)) {
        ntsim_testee__response__free_unpacked(m, NULL);
        return NRT_RESOURCE;
    }
    if (n == f->disorder_at)
        m->id++;
    size_t nlen = 0;
    bool hello = m->body_case == NTSIM_TESTEE__RESPONSE__BODY_HELLO;
    char *name = hello ? m->hello->name : NULL;
    if (hello && f->forge)
        m->hello->name = (char *)FORGED; /* put back before protobuf-c frees it */
    omitted_t o;
    omit_field(hello ? "" : f->omit, m, &o);
    uint8_t *bytes = hello       ? pack_hello(f, m, &nlen)
                     : f->forge ? pack_forged_error(m->id, &nlen)
                     : f->no_body ? pack_no_body(m->id, &nlen)
                     : f->empty && m->body_case != NTSIM_TESTEE__RESPONSE__BODY_ERROR
                         ? pack_empty(m->id, (int)m->body_case, &nlen)
                         : ntsim_testee_pack(&m->base, &nlen);
    if (hello)
        m->hello->name = name;
    omit_undo(&o);
    ntsim_testee__response__free_unpacked(m, NULL);
    if (bytes == NULL)
        return NRT_RESOURCE;
    if (names)
        nul_mark(bytes, nlen);
    free(*resp);
    *resp = bytes;
    *len = nlen;
    return NRT_SUCCESS;
}
