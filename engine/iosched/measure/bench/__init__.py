"""Running ``iosched bench``: the device, its fio jobs, what a running bench changed, its manifest."""
