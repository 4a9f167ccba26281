"""The wire between grader and learner process: data only, strict, capped, never pickle."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest

from grader.worker import protocol


def roundtrip(value):
    tree, blobs = protocol.encode(value)
    header, got_blobs = _frame(protocol.pack({"value": tree}, blobs))
    return protocol.decode(header["value"], got_blobs)


def _frame(data: bytes):
    reader = protocol.FrameReader()
    reader.feed(data)
    return reader.pop()


def test_plain_values_roundtrip() -> None:
    value = {"a": [1, 2.5, None, True, "x"], 3: (float("nan"), float("inf"))}
    got = roundtrip(value)
    assert got["a"] == [1, 2.5, None, True, "x"]
    assert np.isnan(got[3][0]) and got[3][1] == float("inf") and isinstance(got[3], tuple)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64", "bool", "complex128"])
def test_arrays_keep_dtype_and_shape(dtype) -> None:
    array = (np.arange(24).reshape(2, 3, 4) % 3).astype(dtype)
    got = roundtrip(array)
    assert got.dtype == array.dtype and got.shape == array.shape and np.array_equal(got, array)


def test_numpy_scalar_stays_scalar() -> None:
    assert roundtrip(np.float32(1.5)) == np.float32(1.5)


def test_ndarray_subclass_crosses_as_plain_array() -> None:
    class Rigged(np.ndarray):
        def __eq__(self, other):  # a learner's rigged comparison never reaches the grader
            return True

    got = roundtrip(np.zeros(3).view(Rigged))
    assert type(got) is np.ndarray


def test_an_array_sent_twice_is_written_once_and_arrives_as_two() -> None:
    """Shared inputs (one weight tensor in several cases) cost one blob, yet a callee that changes
    one copy in place cannot change the other."""
    weight = np.arange(6.0).reshape(2, 3)
    tree, blobs = protocol.encode({"a": weight, "b": [weight, weight.copy()]})
    assert len(blobs) == 2
    got = protocol.decode(tree, blobs)
    first, (second, third) = got["a"], got["b"]
    first += 100
    assert np.array_equal(second, weight) and np.array_equal(third, weight)
    assert second is not third


def test_object_arrays_never_cross() -> None:
    got = roundtrip(np.array([object()], dtype=object))
    assert isinstance(got, protocol.Opaque)


def test_unknown_objects_are_described_not_sent() -> None:
    class Thing:
        pass

    assert roundtrip(Thing()) == protocol.Opaque("Thing")


def test_pickle_bytes_are_refused_as_an_array() -> None:
    evil = pickle.dumps(np.zeros(2))
    with pytest.raises(protocol.ProtocolError):
        protocol.decode({"$": "nd", "blob": 0}, [evil])


def test_object_npy_is_refused() -> None:
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(protocol.ProtocolError):
        protocol.decode({"$": "nd", "blob": 0}, [buffer.getvalue()])


@pytest.mark.parametrize(
    "tree",
    [{"$": "nd", "blob": 5}, {"$": "nope"}, {"no": "tag"}, {"$": "float", "value": "1e400"}, {"$": "dict", "items": [[[], 1]]}],
)
def test_malformed_trees_are_protocol_errors(tree) -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol.decode(tree, [])


def test_deep_nesting_is_refused() -> None:
    tree: object = 1
    for _ in range(100):
        tree = [tree]
    with pytest.raises(protocol.ProtocolError):
        protocol.decode(tree, [])


def test_frames_arrive_in_pieces() -> None:
    data = protocol.pack({"k": 1}, [b"abc", b""])
    reader = protocol.FrameReader()
    for byte in data[:-1]:
        reader.feed(bytes([byte]))
        assert reader.pop() is None
    reader.feed(data[-1:])
    assert reader.pop() == ({"k": 1}, [b"abc", b""])


def test_oversized_frames_are_refused() -> None:
    reader = protocol.FrameReader(max_bytes=1000)
    with pytest.raises(protocol.ProtocolError):
        reader.feed(b"x" * 5000)


@pytest.mark.parametrize(
    "array",
    [np.zeros(()), np.arange(5), np.ones((2, 3), np.float32), np.zeros((0, 4)), np.float16([1.5]),
     np.arange(12).reshape(3, 4).T, np.arange(12, dtype=">f8").reshape(3, 4)],
    ids=["0d", "1d", "2d", "empty", "half", "fortran", "big-endian"],
)
def test_npy_frames_are_standard_npy_files(array) -> None:
    """What crosses is byte-for-byte what np.save writes (C order), and np.load reads it back."""
    data = protocol._npy_bytes(array)
    expected = io.BytesIO()
    np.save(expected, array.copy(order="C"))
    assert data == expected.getvalue()
    assert np.array_equal(np.load(io.BytesIO(data)), array)


@pytest.mark.parametrize(
    "damage",
    [lambda b: b[:-1], lambda b: b + b"\0", lambda b: b.replace(b"<f8", b"|O8"),
     lambda b: b.replace(b"False", b"True "), lambda b: b.replace(b"(2, 3)", b"(9, 9)"), lambda b: b"\x93NUMPY\x02\x00" + b[8:]],
    ids=["short", "long", "object-dtype", "fortran", "wrong-shape", "version-2"],
)
def test_damaged_npy_is_refused(damage) -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol._load_npy(damage(protocol._npy_bytes(np.zeros((2, 3)))))
