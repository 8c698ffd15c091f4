// Package h5 writes global arrays (package ga) to HDF5 files and reads
// them back, collectively, through parallel HDF5: the format that h5py,
// xarray, NetCDF-4, ParaView, VisIt, MATLAB and Julia read.
package h5
