package h5

import (
	"github.com/goga-hpc/goga/cgo/hdf5"
	"github.com/goga-hpc/goga/ga"
)

// RawOffset is the byte offset at which Write and WriteSection write the
// elements of the dataset path themselves (whole rows), or -1 where HDF5's
// H5Dwrite writes them. It is collective.
func RawOffset[T ga.Elem](f *File, path string) (int, error) {
	code, _ := typeCode[T]()
	ds, _, err := openDataset("RawOffset", f, path)
	if err != nil {
		return -1, err
	}
	defer closeDataset(ds)
	return locked(func() (int, error) { return hdf5.DatasetOffset(ds, code) })
}
