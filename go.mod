module github.com/goga-hpc/goga

go 1.26.8
