"""The `__new__` templates of `_lean/records.py` for records of 29 to 56 fields.

Apart because no record on the path of `agenthooks run` against a warm cache has more than
28 fields (`Handler` is the widest), and each template costs its share of that path's
instructions to unmarshal and define; `records._record` imports these the first time a wider
record is made (a host's `Dialect`, for one), so they cost only the runs that need them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FunctionType
    from typing import Any

_tuple_new: Any = tuple.__new__  # the name each template calls; records gives the real one


def _new29(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28,
    ))


def _new30(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29,
    ))


def _new31(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30,
    ))


def _new32(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31,
    ))


def _new33(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any, a32: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
        a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32,
    ))


def _new34(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
        a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33,
    ))


def _new35(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
        a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34,
    ))


def _new36(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
        a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35,
    ))


def _new37(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any,
    a36: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
        a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35,
        a36,
    ))


def _new38(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any,
    a36: Any, a37: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
        a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35,
        a36, a37,
    ))


def _new39(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any,
    a36: Any, a37: Any, a38: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
        a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35,
        a36, a37, a38,
    ))


def _new40(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any, a28: Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any,
    a36: Any, a37: Any, a38: Any, a39: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
        a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35,
        a36, a37, a38, a39,
    ))


def _new41(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40,
    ))


def _new42(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41,
    ))


def _new43(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42,
    ))


def _new44(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43,
    ))


def _new45(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44,
    ))


def _new46(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45,
    ))


def _new47(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46,
    ))


def _new48(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47,
    ))


def _new49(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any, a48: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48,
    ))


def _new50(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any, a48: Any, a49: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49,
    ))


def _new51(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any, a48: Any, a49: Any, a50: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50,
    ))


def _new52(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any, a48: Any, a49: Any, a50: Any, a51: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51,
    ))


def _new53(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any, a48: Any, a49: Any, a50: Any, a51: Any, a52: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52,
    ))


def _new54(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any, a48: Any, a49: Any, a50: Any, a51: Any, a52: Any, a53: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53,
    ))


def _new55(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any, a48: Any, a49: Any, a50: Any, a51: Any, a52: Any, a53: Any, a54: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, a54,
    ))


def _new56(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any, a9:
    Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any, a18: Any,
    a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any, a27: Any, a28:
    Any, a29: Any, a30: Any, a31: Any, a32: Any, a33: Any, a34: Any, a35: Any, a36: Any, a37: Any,
    a38: Any, a39: Any, a40: Any, a41: Any, a42: Any, a43: Any, a44: Any, a45: Any, a46: Any, a47:
    Any, a48: Any, a49: Any, a50: Any, a51: Any, a52: Any, a53: Any, a54: Any, a55: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
        a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, a54, a55,
    ))


WIDE: dict[int, FunctionType] = {
    len(function.__code__.co_varnames) - 1: function
    for name, function in list(globals().items()) if name.startswith("_new") and name[4:].isdigit()
}
