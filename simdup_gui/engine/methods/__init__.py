"""The fingerprint methods, one object each: what a method reads from a text and how it pairs.

A method is a frozen value holding its own parameters (derived when left at 0, overridable);
on it are what it takes from a text (its signature, or the words of the simhash pipeline),
its candidates and similarity (:meth:`FingerprintMethod.measure`), whether its pairs have a
Hamming distance, and its similarity floor. One module per method (``default``, ``simhash``,
``minhash``, ``sentences``, ``pinyin``), found by name in :data:`NAMES`: adding a method is its
module and a line here. docs/methods.md measures them against each other.

The modules are imported when a method is first named, so that naming the default (every
scan's options) costs nothing: an unchanged folder's report is served without numpy.

>>> method_named("sentences", sentences=5).describe(8, 0.0)
'method sentences: 2 of the 5 longest shared'
>>> method_from_dict(method_named("minhash", bands=16, rows=8).to_dict())
MinHash(bands=16, rows=8)
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

if TYPE_CHECKING:
    from simdup_gui.engine.arrays import U64
    from simdup_gui.engine.match.exact import NodeTexts, Shingles
    from simdup_gui.engine.match.groups import Measure, Similarities
    from simdup_gui.engine.records import FileRecord

NAMES = ("default", "simhash", "minhash", "sentences", "pinyin")  # the registry, in menu order
"""Each method's name; its class is ``METHOD`` in the module of that name (``pinyin.py``)."""

NUM_PERM = 128  # MinHash permutations (the LSH bands times rows use at most this many)

# The options a method may take beside its own parameters (its class's ``takes``).
WORDS = frozenset({"tokenizer", "weighting", "stopwords"})  # the simhash pipeline's words


class Signed(NamedTuple):
    """A text's signature under a method, its digest, and how many items it was made of."""

    signature: bytes
    fingerprint: int
    items: int  # distinct shingles, sentences, or letters counted


@dataclasses.dataclass(frozen=True)
class FingerprintMethod:
    """A fingerprint method: its parameters are the dataclass's fields (see the module)."""

    name: ClassVar[str]
    floor: ClassVar[float]  # the similarity floor when none is given (the measured best)
    distances: ClassVar[bool] = False  # whether its pairs have a Hamming distance (``k``)
    takes: ClassVar[frozenset[str]] = frozenset({"min_similarity"})  # shared options it uses
    words: ClassVar[bool] = False  # whether it reads the words of the simhash pipeline

    @property
    def read_settings(self) -> tuple[object, ...]:
        """What of the method changes a file's record (a key of the cache)."""
        return (self.name, *dataclasses.astuple(self))

    def to_dict(self) -> dict[str, Any]:
        """The method as JSON keeps it: its name and its parameters."""
        return {"name": self.name, **dataclasses.asdict(self)}

    @classmethod
    def uses(cls, option: str) -> bool:
        """Whether an option (a shared one, or a parameter of its own) means anything to it."""
        return option in cls.takes or option in {f.name for f in dataclasses.fields(cls)}

    def describe(self, k: int, floor: float) -> str:
        """What a scan's pairs had to meet, in words: ``method minhash: similarity >= 40%``."""
        parts = [f"k={k}"] if self.distances else []
        parts += [f"similarity >= {100 * floor:g}%"] if floor > 0 else []
        return f"method {self.name}: {', '.join(parts) or 'no floor'}"

    def note(self) -> str:
        """What a report says of the method (empty for the default)."""
        return f"method: {self.name}"

    def signatures(self, texts: list[str]) -> list[Signed]:
        """Each text's signature (a method that reads words has none: the pipeline's record)."""
        raise NotImplementedError(f"{self.name} reads words, not signatures")

    def measure(
        self,
        records: Sequence[FileRecord],
        k: int,
        floor: float,
        cancel: Callable[[], bool],
        texts: NodeTexts | None = None,
        template: U64 | None = None,
    ) -> Measure:
        """The pairs of these records (one per distinct text) that meet the thresholds."""
        raise NotImplementedError

    def similarities(self, records: Sequence[FileRecord]) -> Similarities:
        """The method's own similarity of pairs of these records (by their positions)."""
        raise NotImplementedError

    def bits(self, record: FileRecord) -> int:
        """What a member's distance to its reference is measured on (0: no distance)."""
        return (record.fingerprint or 0) if self.distances else 0

    def likeness(
        self, files: Sequence[FileRecord], floor: float, shingles: Shingles | None = None
    ) -> Callable[[int, int], tuple[float, bool]]:
        """Two of ``files``' similarity (by index), and whether one's text holds the other's.

        For measuring a group's members against a new reference; ``shingles`` gives a file's
        whole shingle set, for a method that checks texts near the floor.
        """
        import numpy as np

        first, second = np.array([0]), np.array([1])

        def like(a: int, b: int) -> tuple[float, bool]:
            return float(self.similarities([files[a], files[b]])(first, second)[0]), False

        return like


@cache
def method_class(name: str) -> type[FingerprintMethod]:
    """The class of the method called ``name``.

    Raises:
        ValueError: no method has that name.
    """
    if name not in NAMES:
        raise ValueError(f"method must be one of {', '.join(NAMES)}, not {name!r}")
    found: type[FingerprintMethod] = importlib.import_module(f"{__name__}.{name}").METHOD
    return found


def method_named(name: str, **parameters: Any) -> FingerprintMethod:
    """The method called ``name`` with these parameters (the rest derived).

    Raises:
        ValueError: no such method, a parameter it does not take or a value that cannot work.
    """
    kind = method_class(name)
    own = {f.name for f in dataclasses.fields(kind)}
    unknown = sorted(set(parameters) - own)
    if unknown:
        raise ValueError(f"method {name} takes no {', '.join(unknown)}")
    return kind(**parameters)


def method_from_dict(kept: dict[str, Any]) -> FingerprintMethod:
    """The method a dictionary keeps (:meth:`FingerprintMethod.to_dict`).

    Parameters the method does not take are left out: a method kept by an older version, when
    all methods shared one set of parameters, is read as it was.
    """
    kind = method_class(str(kept.get("name", "default")))
    own = {f.name for f in dataclasses.fields(kind)}
    return kind(**{key: value for key, value in kept.items() if key in own})
