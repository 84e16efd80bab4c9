/*
 * conformance/cmd/testee_flood.c: `ntsim testee --break=flood=WHAT` (cli.h):
 * replies that stay within the 64 MiB frame limit but carry as much as one
 * frame can, to test the runner's bounds on what one reply may cost it.
 *
 * The reply is the engine's right answer with one field stuffed into its
 * body, written as a stream straight to stdout (a 60 MB frame built in
 * memory would make the testee, not the runner, what a measurement sees):
 *
 *   log      record: 30 million empty log lines (0a 00 each)
 *   unknown  any kind: 20 million unknown fields (field 1000, varint 0)
 *   fields   layout: 5 million fields, each {x, 0, 0, x}
 *   records  record: 30 million empty records (22 00 each)
 *   emits    record: 10 million emit results {0, 0}
 *   json     json: a 60 MB document, {"events":[{},{},...]} (the reply's own
 *            document left out)
 *
 * flood=WHAT:BYTES stuffs BYTES (at most 60000000) instead.
 *
 * Frame: 4-byte length; Response.id (field 1); the body (its field, LEN) =
 * the engine's body, packed, then the stuffing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "testee_msg.h"

/* The stuffing's share of one frame: well under 64 MiB with the rest. */
enum { FLOOD_BYTES = 60000000, CHUNK = 1 << 16 };

static const struct flood {
    const char *name;
    int body;             /* the Response field it applies to; 0: any but hello */
    int field;            /* the body's field holding the elements; 0: none */
    const char *element;  /* one element's bytes */
    size_t element_len;
    const char *head, *tail; /* around the elements, inside `field` */
    size_t head_len, tail_len;
} floods[] = {
    {"log", NTSIM_TESTEE__RESPONSE__BODY_RECORD, 8, "\x0a\x00", 2, "", "\x10\x00", 0, 2},
    {"unknown", 0, 0, "\xc0\x3e\x00", 3, "", "", 0, 0},
    {"fields", NTSIM_TESTEE__RESPONSE__BODY_LAYOUT, 0,
     "\x1a\x0a\x0a\x01x\x10\x00\x18\x00\x22\x01x", 12, "", "", 0, 0},
    {"records", NTSIM_TESTEE__RESPONSE__BODY_RECORD, 0, "\x22\x00", 2, "", "", 0, 0},
    {"emits", NTSIM_TESTEE__RESPONSE__BODY_RECORD, 0, "\x12\x04\x08\x00\x10\x00", 6, "", "",
     0, 0},
    {"json", NTSIM_TESTEE__RESPONSE__BODY_JSON, 2, "{},", 3, "{\"events\":[", "{}]}", 11, 4},
};

bool ntsim_testee_flood_parse(const char *what, ntsim_testee_faults_t *f)
{
    const char *colon = strchr(what, ':');
    size_t n = colon != NULL ? (size_t)(colon - what) : strlen(what);
    f->flood_bytes = FLOOD_BYTES;
    if (colon != NULL) {
        char *end = NULL;
        unsigned long long v = strtoull(colon + 1, &end, 10);
        if (colon[1] < '1' || colon[1] > '9' || *end != '\0' || v > FLOOD_BYTES)
            return false;
        f->flood_bytes = (size_t)v;
    }
    for (size_t i = 0; i < sizeof floods / sizeof floods[0]; i++)
        if (strlen(floods[i].name) == n && strncmp(what, floods[i].name, n) == 0) {
            f->flood = (int)i + 1;
            return true;
        }
    return false;
}

static size_t put_varint(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    do {
        out[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        v >>= 7;
    } while (v != 0);
    return n;
}

static bool write_all(int fd, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

int ntsim_testee_flood_write(const ntsim_testee_faults_t *f, const uint8_t *resp, size_t len,
                             int fd)
{
    if (f->flood == 0)
        return 0;
    const struct flood *fl = &floods[f->flood - 1];
    NtsimTestee__Response *m = ntsim_testee__response__unpack(NULL, len, resp);
    if (m == NULL)
        return -1; /* our own response: only memory can fail */
    int body = (int)m->body_case;
    if (body == NTSIM_TESTEE__RESPONSE__BODY_HELLO ||
        body == NTSIM_TESTEE__RESPONSE__BODY_ERROR || (fl->body != 0 && fl->body != body)) {
        ntsim_testee__response__free_unpacked(m, NULL);
        return 0;
    }
    /* The engine's body, without the document a json flood replaces. */
    if (body == NTSIM_TESTEE__RESPONSE__BODY_JSON && fl->field == 2)
        m->json->has_document = 0;
    const ProtobufCFieldDescriptor *fd_body =
        protobuf_c_message_descriptor_get_field(&ntsim_testee__response__descriptor,
                                                (unsigned)body);
    ProtobufCMessage *b;
    memcpy(&b, (char *)m + fd_body->offset, sizeof b);
    size_t blen = 0;
    uint8_t *bbytes = ntsim_testee_pack(b, &blen);
    uint64_t id = m->id;
    ntsim_testee__response__free_unpacked(m, NULL);
    if (bbytes == NULL)
        return -1;

    size_t room = f->flood_bytes > fl->head_len + fl->tail_len
                      ? f->flood_bytes - fl->head_len - fl->tail_len
                      : 0;
    size_t count = room / fl->element_len;
    uint64_t inner = fl->head_len + (uint64_t)count * fl->element_len + fl->tail_len;
    uint8_t wrap[16], head[32];
    size_t wrap_len = 0, head_len = 0;
    if (fl->field != 0) {
        wrap[wrap_len++] = (uint8_t)(fl->field << 3 | 2);
        wrap_len += put_varint(wrap + wrap_len, inner);
    }
    uint64_t body_len = blen + wrap_len + inner;
    head_len += put_varint(head + head_len, 1 << 3); /* id, varint */
    head_len += put_varint(head + head_len, id);
    head[head_len++] = (uint8_t)(body << 3 | 2);
    head_len += put_varint(head + head_len, body_len);
    uint64_t frame = head_len + body_len;
    uint8_t length[4] = {(uint8_t)frame, (uint8_t)(frame >> 8), (uint8_t)(frame >> 16),
                         (uint8_t)(frame >> 24)};
    uint8_t *chunk = malloc(CHUNK);
    size_t per = CHUNK / fl->element_len;
    bool ok = chunk != NULL && frame <= NTSIM_TESTEE_MAX_FRAME;
    for (size_t i = 0; ok && i < per; i++)
        memcpy(chunk + i * fl->element_len, fl->element, fl->element_len);
    ok = ok && write_all(fd, length, 4) && write_all(fd, head, head_len) &&
         write_all(fd, bbytes, blen) && write_all(fd, wrap, wrap_len) &&
         write_all(fd, fl->head, fl->head_len);
    for (size_t left = count; ok && left > 0;) {
        size_t n = left < per ? left : per;
        ok = write_all(fd, chunk, n * fl->element_len);
        left -= n;
    }
    ok = ok && write_all(fd, fl->tail, fl->tail_len);
    free(chunk);
    free(bbytes);
    return ok ? 1 : -1;
}
