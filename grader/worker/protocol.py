"""Frames and values that cross between the grader and the learner's process. Never pickle.

A frame is ``>II`` (JSON length, blob count), the JSON header, then each blob as ``>Q`` length +
bytes. Values are a JSON tree in which anything that is not ``None``/``bool``/``int``/finite
``float``/``str``/``list`` is a small tagged object ``{"$": tag, ...}``:

=========  ===================================================================
``tuple``  ``{"$": "tuple", "items": [...]}``
``dict``   ``{"$": "dict", "items": [[key, value], ...]}`` (keys: str or int)
``float``  ``{"$": "float", "value": "nan" | "inf" | "-inf"}``
``nd``     a numpy array: ``{"$": "nd", "blob": i}``, the blob an ``.npy`` file
``tensor`` a torch tensor: ``{"$": "tensor", "blob": i, "dtype": "float16", "device": "cpu"}``;
           on the meta device only ``shape`` travels; bfloat16 travels as float32
``ref``    an object kept in the learner's process: ``{"$": "ref", "id": n, "type": "..."}``
``object`` anything else, described only: ``{"$": "object", "type": "MyClass"}``
=========  ===================================================================

The trusted side decodes with hard caps (frame size, nesting depth, element count) and loads
arrays with ``allow_pickle=False``, accepting only bool, integer, float and complex dtypes, so a
learner can corrupt only their own answer.
"""

from __future__ import annotations

import json
import math
import os
import re
import socket
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

MAX_FRAME_BYTES = 256 * 1024 * 1024  # one reply, all blobs together
MAX_JSON_BYTES = 4 * 1024 * 1024
MAX_BLOBS = 4096
MAX_DEPTH = 32
_ALLOWED_KINDS = frozenset("biufc")

_HEAD = struct.Struct(">II")
_BLOB_LEN = struct.Struct(">Q")


class ProtocolError(Exception):
    """Bytes that are not a valid frame, or a value that breaks a cap."""


@dataclass(frozen=True)
class Ref:
    """A handle to an object that lives in the learner's process (e.g. an nn.Module)."""

    id: int
    type: str


@dataclass(frozen=True)
class Opaque:
    """An object the learner returned that cannot cross as data; only its type name is known."""

    type: str


# --------------------------------------------------------------------------- framing


def pack(header: dict[str, Any], blobs: list[bytes]) -> bytes:
    head = json.dumps(header, allow_nan=False, separators=(",", ":")).encode()
    parts = [_HEAD.pack(len(head), len(blobs)), head]
    for blob in blobs:
        parts += [_BLOB_LEN.pack(len(blob)), blob]
    return b"".join(parts)


class FrameReader:
    """Incremental frame parser for a non-blocking pipe; ``feed`` bytes, then ``pop`` frames."""

    def __init__(self, max_bytes: int = MAX_FRAME_BYTES):
        self.buf = bytearray()
        self.max_bytes = max_bytes

    def feed(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) > self.max_bytes + 1024:
            raise ProtocolError(f"reply larger than {self.max_bytes // 2**20} MiB")

    def pop(self) -> tuple[dict[str, Any], list[bytes]] | None:
        """Return one complete frame, or None if more bytes are needed."""
        buf = self.buf
        if len(buf) < _HEAD.size:
            return None
        json_len, n_blobs = _HEAD.unpack_from(buf, 0)
        if json_len > MAX_JSON_BYTES or n_blobs > MAX_BLOBS:
            raise ProtocolError("frame header out of bounds")
        pos = _HEAD.size + json_len
        if len(buf) < pos:
            return None
        blobs = []
        for _ in range(n_blobs):
            if len(buf) < pos + _BLOB_LEN.size:
                return None
            (size,) = _BLOB_LEN.unpack_from(buf, pos)
            if size > self.max_bytes:
                raise ProtocolError("blob larger than the frame cap")
            pos += _BLOB_LEN.size
            if len(buf) < pos + size:
                return None
            blobs.append(bytes(buf[pos : pos + size]))
            pos += size
        try:
            header = json.loads(bytes(buf[_HEAD.size : _HEAD.size + json_len]))
        except (ValueError, RecursionError) as err:
            raise ProtocolError(f"bad JSON header: {err}") from None
        if not isinstance(header, dict):
            raise ProtocolError("frame header is not an object")
        del buf[:pos]
        return header, blobs


def read_frame_blocking(fd: int) -> tuple[dict[str, Any], list[bytes]] | None:
    """Read one frame from a blocking fd (used inside the worker); None at EOF."""
    reader = FrameReader()
    while True:
        frame = reader.pop()
        if frame is not None:
            return frame
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return None
        reader.feed(chunk)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


# --------------------------------------------------------------------------- values


_NPY_MAGIC = b"\x93NUMPY"
#: The header numpy itself writes, and the only one accepted: a dtype, C order, a shape of ints.
_NPY_HEADER = re.compile(
    r"\{'descr': '([<>|][biufc][0-9]{1,2})', 'fortran_order': False, 'shape': \(((?:[0-9]+, ?)*[0-9]*)\), \} *\n"
)


def recv_message(sock: socket.socket) -> tuple[dict[str, Any], list[int], list[bytes]] | None:
    """One control message on the zygote's socket: its header, the fds attached to it (SCM_RIGHTS),
    its blobs; None at EOF.

    Raises ProtocolError for bytes that are not a frame (the stream cannot be trusted after that).
    """
    reader = FrameReader()
    data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 8)
    if not data:
        return None
    reader.feed(data)
    while True:
        frame = reader.pop()
        if frame is not None:
            return frame[0], list(fds), frame[1]
        chunk = sock.recv(1 << 20)
        if not chunk:
            return None
        reader.feed(chunk)


def send_message(sock: socket.socket, header: dict[str, Any], fds: list[int] = (), blobs: list[bytes] = ()) -> None:
    """Send a control message with ``fds`` attached; a long one's rest follows the first bytes."""
    data = pack(header, list(blobs))
    if fds:  # the fds travel with the first bytes; the rest of a long message follows
        sent = socket.send_fds(sock, [data[: 1 << 16]], list(fds))
        sock.sendall(data[sent:])
    else:
        sock.sendall(data)


def _npy_bytes(array: np.ndarray) -> bytes:
    """A standard ``.npy`` (format 1.0) file, written without numpy's per-call overhead."""
    if not array.flags.c_contiguous:
        array = array.copy(order="C")  # (np.ascontiguousarray would turn a 0-d array into 1-d)
    shape = ", ".join(str(n) for n in array.shape) + ("," if array.ndim == 1 else "")
    header = f"{{'descr': '{array.dtype.str}', 'fortran_order': False, 'shape': ({shape}), }}"
    pad = 64 - (len(_NPY_MAGIC) + 4 + len(header) + 1) % 64
    header = (header + " " * pad + "\n").encode("latin1")
    return b"".join((_NPY_MAGIC, b"\x01\x00", struct.pack("<H", len(header)), header, array.tobytes()))


def _load_npy(blob: bytes) -> np.ndarray:
    """Parse a ``.npy`` strictly: numeric dtype, C order, exact byte count; never pickle, never eval."""
    if blob[:6] != _NPY_MAGIC or blob[6:8] != b"\x01\x00" or len(blob) < 10:
        raise ProtocolError("bad array bytes (not a .npy 1.0 file)")
    (header_len,) = struct.unpack_from("<H", blob, 8)
    match = _NPY_HEADER.fullmatch(blob[10 : 10 + header_len].decode("latin1"))
    if match is None:
        raise ProtocolError("bad array bytes (unexpected .npy header)")
    try:
        dtype = np.dtype(match.group(1))
    except TypeError:
        raise ProtocolError(f"array of dtype {match.group(1)} is not allowed") from None
    if dtype.kind not in _ALLOWED_KINDS or dtype.hasobject:
        raise ProtocolError(f"array of dtype {dtype} is not allowed")
    shape = tuple(int(n) for n in match.group(2).replace(" ", "").split(",") if n)
    count = math.prod(shape)
    data = memoryview(blob)[10 + header_len :]
    if len(data) != count * dtype.itemsize:
        raise ProtocolError("bad array bytes (length does not match the shape)")
    array = np.frombuffer(data, dtype=dtype, count=count).reshape(shape).copy()
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("="))
    return array


class Encoder:
    """Turns values into a JSON tree plus blobs. ``keep`` stores unknown objects as refs.

    An array or tensor object met twice in one message is written once: both tags name the same
    blob (the decoder still builds a separate array for each, so nothing is shared on arrival).
    """

    def __init__(self, store: dict[int, Any] | None = None):
        self.blobs: list[bytes] = []
        self.store = store
        self._written: dict[int, tuple[Any, dict[str, Any]]] = {}  # id -> (the object, kept alive; its tag)

    def encode(self, value: Any, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise ProtocolError("value nested too deeply")
        if value is None or isinstance(value, (bool, str)) and type(value) in (bool, str):
            return value
        if type(value) is int:
            return value
        if type(value) is float:
            return value if math.isfinite(value) else {"$": "float", "value": repr(value)}
        if type(value) is list:
            return [self.encode(v, depth + 1) for v in value]
        if type(value) is tuple:
            return {"$": "tuple", "items": [self.encode(v, depth + 1) for v in value]}
        if type(value) is dict:
            items = []
            for k, v in value.items():
                if type(k) not in (str, int):
                    raise ProtocolError(f"dict key of type {type(k).__name__} cannot cross")
                items.append([k, self.encode(v, depth + 1)])
            return {"$": "dict", "items": items}
        written = self._written.get(id(value))
        if written is not None and written[0] is value:
            return written[1]
        tag = self._encode_array(value)
        if tag is not None:
            self._written[id(value)] = (value, tag)
            return tag
        if isinstance(value, Ref):
            return {"$": "ref", "id": value.id, "type": value.type}
        if self.store is not None:
            ref_id = len(self.store) + 1
            self.store[ref_id] = value
            return {"$": "ref", "id": ref_id, "type": type(value).__name__}
        return {"$": "object", "type": type(value).__name__}

    def _encode_array(self, value: Any) -> dict[str, Any] | None:
        """The tag of an ndarray, numpy scalar or tensor; None for anything else."""
        if isinstance(value, np.ndarray) or isinstance(value, np.generic):
            array = np.asarray(value)
            if type(array) is not np.ndarray:
                array = np.array(array, copy=True).view(np.ndarray)
            if array.dtype.kind not in _ALLOWED_KINDS:
                return {"$": "object", "type": f"ndarray[{array.dtype}]"}
            return {"$": "nd", "blob": self._blob(array), "scalar": isinstance(value, np.generic)}
        return self._encode_tensor(value)

    def _blob(self, array: np.ndarray) -> int:
        self.blobs.append(_npy_bytes(array))
        return len(self.blobs) - 1

    def _encode_tensor(self, value: Any) -> dict[str, Any] | None:
        torch = _torch_if_loaded()
        if torch is None or not isinstance(value, torch.Tensor):
            return None
        tensor = value.detach()
        dtype = str(tensor.dtype).removeprefix("torch.")
        if tensor.is_cpu and tensor.dtype != torch.bfloat16 and not (tensor.is_conj() or tensor.is_neg()):
            # the usual case: a plain CPU tensor is already what numpy can read
            return {"$": "tensor", "dtype": dtype, "device": "cpu", "blob": self._blob(tensor.numpy())}
        tag: dict[str, Any] = {"$": "tensor", "dtype": dtype, "device": tensor.device.type}
        if tensor.device.type == "meta":
            tag["shape"] = list(tensor.shape)
            return tag
        tensor = tensor.cpu()
        if tensor.dtype == torch.bfloat16:
            tensor = tensor.float()
        tag["blob"] = self._blob(tensor.resolve_conj().resolve_neg().numpy())
        return tag


def _torch_if_loaded() -> Any:
    import sys

    return sys.modules.get("torch")


def encode(value: Any, store: dict[int, Any] | None = None) -> tuple[Any, list[bytes]]:
    encoder = Encoder(store)
    tree = encoder.encode(value)
    return tree, encoder.blobs


def decode(tree: Any, blobs: list[bytes], refs: dict[int, Any] | None = None, depth: int = 0) -> Any:
    """Rebuild a value. With ``refs`` (worker side), ``ref`` tags resolve to the stored objects."""
    if depth > MAX_DEPTH:
        raise ProtocolError("value nested too deeply")
    if tree is None or type(tree) in (bool, int, float, str):
        return tree
    if type(tree) is list:
        return [decode(v, blobs, refs, depth + 1) for v in tree]
    if type(tree) is not dict or "$" not in tree:
        raise ProtocolError("malformed value")
    tag = tree["$"]
    if tag == "tuple":
        return tuple(decode(v, blobs, refs, depth + 1) for v in _list(tree, "items"))
    if tag == "dict":
        out = {}
        for pair in _list(tree, "items"):
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) not in (str, int):
                raise ProtocolError("malformed dict item")
            out[pair[0]] = decode(pair[1], blobs, refs, depth + 1)
        return out
    if tag == "float":
        text = tree.get("value")
        if text not in ("nan", "inf", "-inf"):
            raise ProtocolError("malformed float")
        return float(text)
    if tag == "nd":
        array = _load_npy(_blob_at(blobs, tree))
        return array[()] if tree.get("scalar") is True and array.ndim == 0 else array
    if tag == "tensor":
        return _decode_tensor(tree, blobs)
    if tag == "ref":
        ref_id, type_name = tree.get("id"), tree.get("type")
        if type(ref_id) is not int or type(type_name) is not str:
            raise ProtocolError("malformed ref")
        if refs is not None:
            if ref_id not in refs:
                raise ProtocolError(f"unknown ref {ref_id}")
            return refs[ref_id]
        return Ref(ref_id, type_name[:100])
    if tag == "object":
        return Opaque(str(tree.get("type", "?"))[:100])
    raise ProtocolError(f"unknown tag {tag!r}")


def _list(tree: dict[str, Any], key: str) -> list[Any]:
    value = tree.get(key)
    if type(value) is not list:
        raise ProtocolError(f"malformed {tree.get('$')}")
    return value


def _blob_at(blobs: list[bytes], tree: dict[str, Any]) -> bytes:
    index = tree.get("blob")
    if type(index) is not int or not 0 <= index < len(blobs):
        raise ProtocolError("bad blob index")
    return blobs[index]


def _decode_tensor(tree: dict[str, Any], blobs: list[bytes]) -> Any:
    import torch

    dtype = getattr(torch, str(tree.get("dtype")), None)
    if not isinstance(dtype, torch.dtype):
        raise ProtocolError(f"unknown tensor dtype {tree.get('dtype')!r}")
    device = tree.get("device")
    if device == "meta":
        shape = tree.get("shape")
        if type(shape) is not list or not all(type(s) is int and 0 <= s < 2**40 for s in shape):
            raise ProtocolError("malformed meta tensor")
        return torch.empty(shape, dtype=dtype, device="meta")
    array = _load_npy(_blob_at(blobs, tree))
    tensor = torch.from_numpy(array.copy())
    if tensor.dtype != dtype:
        tensor = tensor.to(dtype)
    if device not in (None, "cpu"):
        # The learner's tensor lived on another device; the grader compares on the CPU and
        # remembers where it came from.
        tensor.grader_device = str(device)  # type: ignore[attr-defined]
    return tensor
