/*
 * engine/read/ntff_wire.c: protobuf fields on the wire (ntff_wire.h). A field
 * is a varint key (number << 3 | wire type) then, by wire type: 0 a varint,
 * 1 eight bytes, 5 four bytes, 2 a varint length and that many bytes.
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

bool ntsim__ntff_wire_key(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f)
{
    f->start = *i;
    f->value = f->value_len = 0;
    uint64_t key;
    if (!wire_varint(b, len, i, &key) || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
        return false;
    f->number = (uint32_t)(key >> 3);
    f->wire = (unsigned)(key & 7);
    /* groups (3, 4) and 6, 7 are not in ntff.proto */
    return f->wire == 0 || f->wire == 1 || f->wire == 2 || f->wire == 5;
}

bool ntsim__ntff_wire_value(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f)
{
    uint64_t n;
    switch (f->wire) {
    case 0: if (!wire_varint(b, len, i, &n)) return false; break;
    case 1: if (len - *i < 8) return false; *i += 8; break;
    case 5: if (len - *i < 4) return false; *i += 4; break;
    default: /* 2: ntsim__ntff_wire_key lets no other through */
        if (!wire_varint(b, len, i, &n))
            return false;
        f->value = *i; /* set when the bytes end inside the payload too */
        f->value_len = n < SIZE_MAX ? (size_t)n : SIZE_MAX;
        if (n > len - *i)
            return false;
        *i += (size_t)n;
        break;
    }
    f->end = *i;
    return true;
}

bool ntsim__ntff_wire_next(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f)
{
    return ntsim__ntff_wire_key(b, len, i, f) && ntsim__ntff_wire_value(b, len, i, f);
}

bool ntsim__ntff_wire_is_event(const ntsim_wire_field_t *f)
{
    return f->number == 1 && f->wire == 2;
}
