/*
 * conformance/lib/ntff_wire.c: an ntrace_info's top-level fields on the
 * protobuf wire (ntff_wire.h). A field is a varint key (number << 3 | wire
 * type) then, by wire type: 0 a varint, 1 eight bytes, 5 four bytes, 2 a
 * varint length and that many bytes.
 */
#include "ntff_wire.h"

/* Reads a varint at *i; false past the end or past 10 bytes. */
static bool wire_varint(const uint8_t *b, size_t len, size_t *i, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (*i >= len)
            return false;
        uint8_t c = b[(*i)++];
        *v |= (uint64_t)(c & 0x7f) << shift;
        if (c < 0x80)
            return true;
    }
    return false;
}

bool ntsim_ntff_wire_next(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f)
{
    f->start = *i;
    uint64_t key, n;
    if (!wire_varint(b, len, i, &key) || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
        return false;
    f->number = (uint32_t)(key >> 3);
    f->value = f->value_len = 0;
    switch (key & 7) {
    case 0: if (!wire_varint(b, len, i, &n)) return false; break;
    case 1: if (len - *i < 8) return false; *i += 8; break;
    case 5: if (len - *i < 4) return false; *i += 4; break;
    case 2:
        if (!wire_varint(b, len, i, &n) || n > len - *i)
            return false;
        f->value = *i;
        f->value_len = (size_t)n;
        *i += (size_t)n;
        break;
    default: return false; /* groups (3, 4) and 6, 7 are not in ntff.proto */
    }
    f->end = *i;
    return true;
}

bool ntsim_ntff_wire_is_event(const ntsim_wire_field_t *f)
{
    /* A varint or fixed field has value 0 and value_len 0 while its end is
     * past its key; only a length-delimited one ends right after its payload. */
    return f->number == 1 && f->value_len == f->end - f->value;
}
