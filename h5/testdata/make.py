# make.py FILE SPEC: h5py writes a file of the datasets of SPEC (JSON:
# path, dtype, dims, chunk; "order": ">" stores big-endian) with goga's
# test values, and a few attributes of each kind h5py writes, for goga to
# read.
import json
import sys

import h5py
import numpy as np

from common import val

name, spec = sys.argv[1], json.loads(sys.argv[2])
with h5py.File(name, "w") as f:
    for d in spec["datasets"]:
        v = val(d["dtype"], d["dims"])
        if d.get("order") == ">":
            v = v.astype(v.dtype.newbyteorder(">"))
        f.create_dataset(d["path"], data=v, chunks=tuple(d["chunk"]) if d["chunk"] else None)
    f.create_dataset("other/u16", data=np.arange(6, dtype="<u2").reshape(2, 3))
    f.create_dataset("other/text", data=np.array([b"ab", b"cd"]))
    a = f["fields"].attrs
    a["units"] = "K"
    a["fixed"] = np.bytes_(b"fixed")
    a["scale"] = 2.5
    a["count"] = np.int32(7)
    a["steps"] = np.array([1, 2, 3], dtype="<i8")
    a["weights"] = np.array([0.5, 1.5], dtype="<f4")
    a["z"] = np.complex128(1 - 2j)
    f.attrs["title"] = "made by h5py"
