module example.com/parcel

go 1.22
