#!/usr/bin/python3
"""testee.py: a testee skeleton in Python, the starting point of a port
(PREFIX/share/ntsim/docs/TESTEE.md, "From zero to a first green run").

It speaks the testee protocol on stdin and stdout: frames of a 4-byte
little-endian length and one protobuf message (testee.proto: a Request from
the runner, a Response from the testee), answers the hello, and answers
the layout, enum and event_type requests from the port's own definitions
(abi.py). Every other request is answered with an Error: the runner then
fails that vector with the message, and the testee keeps running. Grow it
kind by kind: implement a request, add its kind to ANSWERS.

The protocol's Python module is generated, never committed:

    protoc --python_out=. -I PREFIX/share/ntsim/proto testee.proto

Run it through the runner, which starts it and owns the exchange:

    PREFIX/bin/check_ntsim --testee 'python3 testee.py'

--kinds=LIST announces other kinds than those it answers (to see what the
runner does with a kind answered with an Error)."""
import struct
import sys

import abi
import testee_pb2 as pb

PROTOCOL_VERSION = 1
MAX_FRAME = 64 << 20  # the protocol's bound on a frame


def answer_layout(q, reply):
    found = abi.layout(q.c_type)
    reply.found = found is not None
    if found is not None:
        reply.size, fields = found
        for name, offset, size, word in fields:
            reply.fields.add(name=name, offset=offset, size=size, type=word)


def answer_enum(q, reply):
    enum = abi.ENUMS.get(q.c_type)
    reply.found = enum is not None
    if enum is not None:
        reply.size = abi.ENUM_SIZE
        for member in enum:
            reply.members.add(name=member.name, value=member.value)


CATEGORY_NAMES = {'H': 'HARDWARE', 'S': 'SOFTWARE'}


def event_type_category(value):
    """This port's nrt_sys_trace_get_event_type_category."""
    if value >= abi.EVENT_TYPE_COUNT:
        return abi.nrt_sys_trace_event_category.NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN
    return abi.nrt_sys_trace_event_category[
        'NRT_SYS_TRACE_EVENT_CATEGORY_' + CATEGORY_NAMES[abi.EVENT_TYPES[value][1]]]


def config_disable_type(name):
    """This port's config_set_capture_enabled_for_event_type(default config,
    name, false): the status and the types it disabled."""
    disabled = [value for value, row in enumerate(abi.EVENT_TYPES) if row[2] == name]
    return (abi.NRT_STATUS.NRT_SUCCESS if disabled else abi.NRT_STATUS.NRT_INVALID), disabled


def answer_event_type(q, reply):
    reply.found = q.value < abi.EVENT_TYPE_COUNT
    if not reply.found:
        return
    suffix, category, name, start, stop, instant = abi.EVENT_TYPES[q.value]
    reply.enum_name = abi.nrt_sys_trace_event_type(q.value).name
    reply.type = q.value
    reply.category = CATEGORY_NAMES[category]
    reply.api_category = event_type_category(q.value)
    reply.json_name = name
    reply.start, reply.stop, reply.instant = (m or 'none' for m in (start, stop, instant))
    names = [row[2] for row in abi.EVENT_TYPES]  # this port's nrt_sys_trace_get_event_types
    reply.names_status, reply.names_count = abi.NRT_STATUS.NRT_SUCCESS, len(names)
    reply.api_name = names[q.value]
    reply.setter_status, disabled = config_disable_type(q.setter_name)
    reply.setter_disabled.extend(disabled)


# The kinds answered: the request's field of Request.body (the kind's name on
# the left, as the hello announces it), and the function that fills the reply.
ANSWERS = {
    'layout': ('layout', answer_layout),
    'enum': ('enum_type', answer_enum),
    'event_type': ('event_type', answer_event_type),
}


def respond(request, announced):
    response = pb.Response(id=request.id)
    body = request.WhichOneof('body')
    if body == 'hello':
        response.hello.protocol_version = PROTOCOL_VERSION
        response.hello.name = 'python example testee'
        response.hello.kinds.extend(announced)
        return response
    for field, answer in ANSWERS.values():
        if body == field:
            answer(getattr(request, field), getattr(response, field))
            return response
    response.error.message = f'the Python example answers no {body} request (not implemented)'
    return response


def read_exactly(stream, n):
    data = stream.read(n)
    return data if data is not None else b''


def main():
    announced = list(ANSWERS)
    for arg in sys.argv[1:]:
        if arg.startswith('--kinds='):
            announced = [k for k in arg[len('--kinds='):].split(',') if k]
        else:
            sys.exit(f'testee.py: unknown argument {arg!r} (--kinds=LIST)')
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = read_exactly(stdin, 4)
        if not head:
            return 0  # the runner is done (or restarting us): exit 0
        if len(head) < 4:
            sys.exit('testee.py: stdin ended inside a frame length')
        (length,) = struct.unpack('<I', head)
        body = read_exactly(stdin, length)
        if length > MAX_FRAME or len(body) != length:
            sys.exit(f'testee.py: a frame of {length} bytes could not be read')
        request = pb.Request()
        try:
            request.ParseFromString(body)
        except Exception as e:  # protobuf's DecodeError: no id to answer with
            sys.exit(f'testee.py: a frame that is not a Request: {e}')
        out = respond(request, announced).SerializeToString()
        stdout.write(struct.pack('<I', len(out)) + out)
        stdout.flush()


if __name__ == '__main__':
    sys.exit(main())
