{
    "architecture": "aarch64",
    "devices": {
        "mmcblk0": {
            "holders": [],
            "links": {"ids": [], "labels": [], "masters": [], "uuids": []},
            "partitions": {},
            "removable": "0",
            "rotational": "0",
            "scheduler_mode": "bfq",
            "sectors": 62333952,
            "sectorsize": "512",
            "virtual": 1
        },
        "zram0": {
            "holders": [],
            "links": {"ids": [], "labels": [], "masters": [], "uuids": []},
            "partitions": {},
            "removable": "0",
            "rotational": "0",
            "scheduler_mode": "",
            "sectors": 1000192,
            "sectorsize": "4096",
            "virtual": 1
        }
    },
    "distribution": "Debian",
    "distribution_version": "12.7",
    "hostname": "pi5",
    "kernel": "6.6.51+rpt-rpi-2712",
    "system": "Linux",
    "virtualization_role": "NA",
    "virtualization_type": "NA"
}
