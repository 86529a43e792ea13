"""The tournament's signing key: an Ed25519 key pair that signs the record's chain head.

The *public* key is part of the record (the meta row ``signing_key``: ``{"ed25519": HEX}``),
so a bundle or a copy of the file carries it. The *private* key never enters the file: it
is kept in the head desk's key folder (:func:`key_dir`: ``REFEREE_APP_KEYS``, else
``keys/`` in the user's data folder), one PEM file (PKCS#8, owner-only) named by the key's
fingerprint. Whoever rewrites a copy of the file can recompute every hash, but cannot sign
the new head without it.

* fingerprint: the first 32 hex digits of the SHA-256 of the raw 32-byte public key;
  its short form (reports, pages, ``verify --key``): the first 16.
* what is signed: after every write, the new chain head — the bytes
  ``referee-desk head\\n<seq>\\n<hash>`` (entry number and its 64-hex SHA-256).
* moving the key: :func:`export_key` writes it encrypted with a passphrase (PKCS#8,
  ``BestAvailableEncryption``); :func:`import_key` reads it back into this desk's folder.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import StorageError, StorageFault
from .places import data_dir

#: the meta row holding the record's public key
META_KEY = "signing_key"
#: the folder of private keys (tests and standbys point it elsewhere)
KEYS_ENV = "REFEREE_APP_KEYS"
FINGERPRINT_HEX = 32
SHORT_HEX = 16
#: shortest passphrase accepted for an exported key
PASSPHRASE_MIN = 8
#: the most of a file read as a key (``/dev/zero`` given by mistake costs no more)
KEY_FILE_LIMIT = 64 * 1024
_DOMAIN = b"referee-desk head\n"


class KeyMissingError(StorageFault):
    """The record is signed with a key whose private half is not on this desk: nothing can
    be written here until it is imported (``referee-app key import``). A fault of the desk,
    not of the change asked (exit 3; a server answers 503 and desks keep their hands)."""

    code = "key_missing"


class KeyFileError(StorageError):
    """An exported key file that cannot be used: unreadable, not a key, wrong passphrase."""

    code = "key_file"


def key_dir() -> Path:
    """This desk's folder of private keys (not created here)."""
    env = os.environ.get(KEYS_ENV)
    if env:
        return Path(env)
    return data_dir() / "keys"


def fingerprint(public_raw: bytes) -> str:
    """The key's fingerprint: 32 hex digits of the SHA-256 of its raw public bytes."""
    return hashlib.sha256(public_raw).hexdigest()[:FINGERPRINT_HEX]


def short(fp: str) -> str:
    """The fingerprint's short form (16 hex digits), printed beside the record's digest."""
    return fp[:SHORT_HEX]


def message(seq: int, digest: str) -> bytes:
    """The bytes signed for the chain head after entry ``seq`` whose hash is ``digest``."""
    return _DOMAIN + f"{seq}\n{digest}".encode("ascii")


def normalise_fingerprint(text: str, field: str = "key") -> str:
    """A fingerprint as typed (spaces, colons, upper case allowed): at least 16 hex digits."""
    fp = "".join(c for c in str(text) if c not in " :-").lower()
    if not (SHORT_HEX <= len(fp) <= FINGERPRINT_HEX) or any(c not in "0123456789abcdef"
                                                             for c in fp):
        raise StorageError.of(field, "bad_fingerprint", got=str(text)[:80], min=SHORT_HEX,
                              max=FINGERPRINT_HEX)
    return fp


# --------------------------------------------------------------------------- public keys

@dataclass(frozen=True, slots=True)
class PublicKey:
    """A record's public key (from its meta row) and the check of a head's signature."""

    raw: bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.raw)

    def meta_value(self) -> str:
        """The meta row's stored value (compact JSON, as every meta value)."""
        return json.dumps({"ed25519": self.raw.hex()}, separators=(",", ":"))

    @classmethod
    def from_meta(cls, value: Any) -> PublicKey:
        """The key of a meta value (stored JSON text, or already parsed); ValueError if
        it is not one."""
        d = json.loads(value) if isinstance(value, str | bytes) else value
        if not isinstance(d, dict) or not isinstance(d.get("ed25519"), str):
            raise ValueError("not an Ed25519 public key")
        raw = bytes.fromhex(d["ed25519"])
        if len(raw) != 32:
            raise ValueError("an Ed25519 public key has 32 bytes")
        return cls(raw)

    def verifier(self) -> Any:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        return Ed25519PublicKey.from_public_bytes(self.raw)

    def check(self, seq: int, digest: str, signature: str | None) -> bool:
        """Whether ``signature`` (hex) signs the head ``(seq, digest)`` with this key."""
        return check_with(self.verifier(), seq, digest, signature)


#: the digits a signature is written in (lower-case hex, as ``sign`` writes it)
_HEX = frozenset("0123456789abcdef")


def well_formed(signature: object) -> bool:
    """Whether ``signature`` has the form of one (128 hex digits), before checking it."""
    return isinstance(signature, str) and len(signature) == 128 and set(signature) <= _HEX


def check_with(verifier: Any, seq: int, digest: str, signature: str | None) -> bool:
    """:meth:`PublicKey.check` with the loaded key (``PublicKey.verifier``): verify a chain
    loads it once, not once an entry."""
    from cryptography.exceptions import InvalidSignature

    if not isinstance(signature, str) or len(signature) != 128:
        return False
    try:
        verifier.verify(bytes.fromhex(signature), message(seq, digest))
    except (InvalidSignature, ValueError):
        return False
    return True


# --------------------------------------------------------------------------- private keys

class SigningKey:
    """A private key on this desk (loaded from the key folder, or just made)."""

    def __init__(self, private: Any) -> None:
        self._private = private
        self.public = PublicKey(private.public_key().public_bytes_raw())

    @property
    def fingerprint(self) -> str:
        return self.public.fingerprint

    @classmethod
    def generate(cls) -> SigningKey:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return cls(Ed25519PrivateKey.generate())

    def sign(self, seq: int, digest: str) -> str:
        """The signature (128 hex digits) of the chain head ``(seq, digest)``."""
        return str(self._private.sign(message(seq, digest)).hex())

    def pem(self, passphrase: str | None = None) -> bytes:
        """PKCS#8 PEM: plain (this desk's folder) or encrypted (an export)."""
        from cryptography.hazmat.primitives import serialization as ser

        enc: Any = (ser.NoEncryption() if passphrase is None
                    else ser.BestAvailableEncryption(passphrase.encode("utf-8")))
        return bytes(self._private.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8,
                                                 enc))


#: keys loaded in this process, by fingerprint (a desk signs every write with one)
_loaded: dict[str, SigningKey] = {}


def key_path(fp: str, folder: Path | None = None) -> Path:
    return (folder or key_dir()) / f"{fp}.pem"


def save(key: SigningKey, folder: Path | None = None) -> Path:
    """Write ``key`` into the key folder (owner-only, fsynced) before it signs anything:
    a record signed with a key that was not kept could never be written again."""
    folder = folder or key_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = key_path(key.fingerprint, folder)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(key.pem())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(folder)
    _loaded[key.fingerprint] = key
    return path


def forget(fp: str, folder: Path | None = None) -> None:
    """Remove a key made for a save that was then rolled back (it signs nothing kept)."""
    _loaded.pop(fp, None)
    key_path(fp, folder).unlink(missing_ok=True)


def load(fp: str) -> SigningKey | None:
    """This desk's private key of fingerprint ``fp``, or None when it is not here."""
    cached = _loaded.get(fp)
    if cached is not None:  # every save signs: read the folder once per key and process
        return cached
    path = key_path(fp)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    key = _plain_ed25519(data) or _private_from_pem(data, None, str(path))
    if key.fingerprint != fp:  # a file renamed by hand: it is not this key
        return None
    _loaded[fp] = key
    return key


#: the DER of an unencrypted Ed25519 private key in PKCS#8 (RFC 8410 §7) up to its 32-byte
#: seed: always these 16 bytes
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")
_PEM_BEGIN, _PEM_END = b"-----BEGIN PRIVATE KEY-----", b"-----END PRIVATE KEY-----"


def _plain_ed25519(data: bytes) -> SigningKey | None:
    """This desk's own key file read without ``cryptography``'s serialization module, whose
    import costs a command that saves one hand some 0.1-0.2 s: the file is always an
    unencrypted PKCS#8 Ed25519 key, i.e. a fixed prefix and the seed. Anything else: None
    (the library reads it)."""
    import base64
    import binascii

    text = data.strip()
    if not (text.startswith(_PEM_BEGIN) and text.endswith(_PEM_END)):
        return None
    try:
        der = base64.b64decode(b"".join(text[len(_PEM_BEGIN):-len(_PEM_END)].split()),
                               validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(der) != 48 or not der.startswith(_PKCS8_ED25519):
        return None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return SigningKey(Ed25519PrivateKey.from_private_bytes(der[16:]))


def _private_from_pem(data: bytes, passphrase: str | None, source: str) -> SigningKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        private = load_pem_private_key(
            data, None if passphrase is None else passphrase.encode("utf-8"))
    except TypeError:  # encrypted but no passphrase given, or a passphrase for a plain key
        raise KeyFileError.of("file", "key_needs_passphrase" if passphrase is None
                              else "key_not_encrypted", path=source) from None
    except ValueError:
        if passphrase is not None and b"ENCRYPTED" in data:
            raise KeyFileError.of("passphrase", "key_wrong_passphrase", path=source) from None
        raise KeyFileError.of("file", "key_not_a_key", path=source) from None
    except Exception:  # cryptography's UnsupportedAlgorithm and the like
        raise KeyFileError.of("file", "key_not_a_key", path=source) from None
    if not isinstance(private, Ed25519PrivateKey):
        raise KeyFileError.of("file", "key_not_ed25519", path=source)
    return SigningKey(private)


def export_key(fp: str, out: Path, passphrase: str) -> Path:
    """Write this desk's key ``fp`` to ``out``, encrypted with ``passphrase``."""
    from .files import atomic_file

    if len(passphrase) < PASSPHRASE_MIN:
        raise KeyFileError.of("passphrase", "passphrase_short", min=PASSPHRASE_MIN)
    key = load(fp)
    if key is None:
        raise KeyMissingError.of("key", "key_missing", key=short(fp), folder=str(key_dir()))
    with atomic_file(out, binary=True) as f:
        f.write(key.pem(passphrase))
    os.chmod(out, 0o600)
    return out


def import_key(source: Path, passphrase: str, *, expect: str | None = None) -> SigningKey:
    """Read an exported key (its passphrase checked) into this desk's key folder;
    ``expect``: the fingerprint it must have (a tournament's key), else nothing is kept."""
    try:
        with open(source, "rb") as f:  # a key file is a few hundred bytes: never read more
            data = f.read(KEY_FILE_LIMIT + 1)
    except OSError as e:
        raise KeyFileError.of("file", "key_unreadable", path=str(source),
                              detail=e.strerror or str(e)) from None
    if len(data) > KEY_FILE_LIMIT:
        raise KeyFileError.of("file", "key_not_a_key", path=str(source))
    key = _private_from_pem(data, passphrase, str(source))
    if expect is not None and key.fingerprint != expect:
        raise KeyFileError.of("file", "key_other_tournament", path=str(source),
                              key=short(key.fingerprint), wanted=short(expect) or "-")
    save(key)
    return key


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)
