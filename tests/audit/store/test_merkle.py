"""The Merkle tree of audit.store.merkle against RFC 9162's definitions, written here as
literally as the RFC states them (recursive MTH, PATH, PROOF/SUBPROOF over lists)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.store import merkle


def H(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def MTH(D: list[bytes]) -> bytes:
    """RFC 9162 §2.1.1."""
    n = len(D)
    if n == 0:
        return H(b"")
    if n == 1:
        return H(b"\x00" + D[0])
    k = largest_power_of_two_below(n)
    return H(b"\x01" + MTH(D[0:k]) + MTH(D[k:n]))


def largest_power_of_two_below(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def PATH(m: int, D: list[bytes]) -> list[bytes]:
    """RFC 9162 §2.1.3.1."""
    n = len(D)
    if n == 1:
        return []
    k = largest_power_of_two_below(n)
    if m < k:
        return PATH(m, D[0:k]) + [MTH(D[k:n])]  # noqa: RUF005 (the RFC's ':')
    return PATH(m - k, D[k:n]) + [MTH(D[0:k])]  # noqa: RUF005 (the RFC's ':')


def PROOF(m: int, D: list[bytes]) -> list[bytes]:
    """RFC 9162 §2.1.4.1."""
    return SUBPROOF(m, D, True)


def SUBPROOF(m: int, D: list[bytes], b: bool) -> list[bytes]:
    n = len(D)
    if m == n:
        return [] if b else [MTH(D)]
    k = largest_power_of_two_below(n)
    if m <= k:
        return SUBPROOF(m, D[0:k], b) + [MTH(D[k:n])]  # noqa: RUF005 (the RFC's ':')
    return SUBPROOF(m - k, D[k:n], False) + [MTH(D[0:k])]  # noqa: RUF005 (the RFC's ':')


def leaves(n: int, seed: int = 0) -> list[bytes]:
    return [H(f"{seed}/{i}".encode())[: (i * 7 + seed) % 33] for i in range(n)]


def hashed(D: list[bytes]) -> list[bytes]:
    return [merkle.leaf_hash(d) for d in D]


# The RFC 6962 reference tree of certificate-transparency (Go and C++ test data): eight
# leaves and the roots of its first 1..8 leaves. Checked here against the literal MTH
# above as well, so a wrong constant cannot pass silently.
RFC6962_LEAVES = [
    b"",
    b"\x00",
    b"\x10",
    b"\x20\x21",
    b"\x30\x31",
    b"\x40\x41\x42\x43",
    b"\x50\x51\x52\x53\x54\x55\x56\x57",
    b"\x60\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x6b\x6c\x6d\x6e\x6f",
]
RFC6962_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def test_empty_tree() -> None:
    assert merkle.TreeBuilder().root() == merkle.EMPTY_ROOT == MTH([])
    assert merkle.tree_root([], 0) == MTH([])
    assert merkle.EMPTY_ROOT.hex() == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )


@pytest.mark.parametrize("size", range(1, 9))
def test_rfc6962_reference_roots(size: int) -> None:
    D = RFC6962_LEAVES[:size]
    assert MTH(D).hex() == RFC6962_ROOTS[size - 1]
    assert merkle.tree_root(RFC6962_LEAVES, size).hex() == RFC6962_ROOTS[size - 1]


def test_rfc6962_reference_proofs_verify() -> None:
    D = RFC6962_LEAVES
    for n in range(1, 9):
        root = bytes.fromhex(RFC6962_ROOTS[n - 1])
        for m in range(n):
            proof = merkle.inclusion_proof(hashed(D), m, n)
            assert proof == PATH(m, D[:n])
            assert merkle.verify_inclusion(merkle.leaf_hash(D[m]), m, n, proof, root)
        for m in range(1, n + 1):
            first = bytes.fromhex(RFC6962_ROOTS[m - 1])
            proof = merkle.consistency_proof(hashed(D), m, n)
            assert proof == PROOF(m, D[:n])
            assert merkle.verify_consistency(m, n, first, root, proof)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 200), seed=st.integers(0, 1000))
def test_streamed_root_is_mth_of_every_prefix(n: int, seed: int) -> None:
    D = leaves(n, seed)
    builder = merkle.TreeBuilder()
    for i, d in enumerate(D, 1):
        builder.append(d)
        if i in (1, n // 2 or 1, n) or i % 37 == 0:
            assert builder.root() == MTH(D[:i])
        assert len(builder.frontier) == i.bit_count()  # O(log n) memory
    again = merkle.TreeBuilder.from_frontier_bytes(n, builder.frontier_bytes())
    assert again.root() == MTH(D)
    assert merkle.tree_root(iter(D), n) == MTH(D)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), n=st.integers(1, 200), seed=st.integers(0, 1000))
def test_inclusion_proofs_are_rfc_paths_and_verify(data: st.DataObject, n: int, seed: int) -> None:
    D = leaves(n, seed)
    m = data.draw(st.integers(0, n - 1))
    root = MTH(D)
    proof = merkle.inclusion_proof(iter(hashed(D) + [b"x" * 32] * 3), m, n)  # reads only n
    assert proof == PATH(m, D)
    leaf = merkle.leaf_hash(D[m])
    assert merkle.verify_inclusion(leaf, m, n, proof, root)
    # Any change breaks it: another leaf, index or root, or a changed, cut or longer path.
    # (Not every other size: a path can fit two sizes; the signed head fixes the size.)
    assert not merkle.verify_inclusion(merkle.leaf_hash(D[m] + b"!"), m, n, proof, root)
    assert not merkle.verify_inclusion(leaf, m, n, proof, H(root))
    assert not merkle.verify_inclusion(leaf, n, n, proof, root)
    if n > 1:
        other = (m + 1) % n
        if merkle.leaf_hash(D[other]) != leaf:
            assert not merkle.verify_inclusion(leaf, other, n, proof, root)
        assert not merkle.verify_inclusion(leaf, m, n, proof[:-1], root)
        assert not merkle.verify_inclusion(leaf, m, n, [H(proof[0]), *proof[1:]], root)
        assert not merkle.verify_inclusion(leaf, m, n, [*proof, proof[-1]], root)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), n=st.integers(1, 200), seed=st.integers(0, 1000))
def test_consistency_proofs_are_rfc_proofs_and_verify(
    data: st.DataObject, n: int, seed: int
) -> None:
    D = leaves(n, seed)
    m = data.draw(st.integers(1, n))
    first, second = MTH(D[:m]), MTH(D)
    proof = merkle.consistency_proof(hashed(D), m, n)
    assert proof == PROOF(m, D)
    assert merkle.verify_consistency(m, n, first, second, proof)
    # A rewritten prefix or a tampered proof does not verify.
    changed = list(D)
    changed[data.draw(st.integers(0, m - 1))] += b"!"
    assert not merkle.verify_consistency(m, n, MTH(changed[:m]), second, proof)
    assert not merkle.verify_consistency(m, n, first, MTH(changed), proof)
    if m < n:
        assert not merkle.verify_consistency(m, n, first, second, [])
        assert not merkle.verify_consistency(m, n, first, second, [H(proof[0]), *proof[1:]])
        assert not merkle.verify_consistency(m, n, first, second, proof[:-1])
    assert merkle.verify_consistency(0, n, merkle.EMPTY_ROOT, second, [])


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        merkle.inclusion_ranges(3, 3)
    with pytest.raises(ValueError):
        merkle.consistency_ranges(4, 3)
    with pytest.raises(ValueError):
        merkle.tree_root([b"a"], 2)
    with pytest.raises(ValueError):
        merkle.inclusion_proof([merkle.leaf_hash(b"a")], 0, 2)
    with pytest.raises(ValueError):
        merkle.TreeBuilder(3, [b"x" * 32])
