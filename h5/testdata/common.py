# The values of goga's h5 tests (val in helpers_test.go): element i of a
# dataset of each element type.
import numpy as np


def val(dtype, dims):
    i = np.arange(int(np.prod(dims)))
    if dtype == "int32":
        v = (i + 1).astype("<i4")
    elif dtype == "int64":
        v = ((i + 1) << 33).astype("<i8")
    elif dtype == "float32":
        v = (i + 0.5).astype("<f4")
    elif dtype == "float64":
        v = (i + 0.25).astype("<f8")
    elif dtype == "complex64":
        v = (i - 1j * (i + 1)).astype("<c8")
    elif dtype == "complex128":
        v = ((i + 0.5) - 1j * i).astype("<c16")
    else:
        raise ValueError(dtype)
    return v.reshape(dims)
