{
    "ansible_architecture": "x86_64",
    "ansible_devices": {
        "cciss!c0d0": {
            "holders": [],
            "host": "RAID bus controller: Hewlett-Packard Company Smart Array G6 controllers (rev 01)",
            "links": {
                "ids": [],
                "labels": [],
                "masters": [],
                "uuids": []
            },
            "model": "LOGICAL VOLUME",
            "partitions": {
                "cciss!c0d0p1": {
                    "holders": [],
                    "links": {
                        "ids": [],
                        "labels": [],
                        "masters": [],
                        "uuids": []
                    },
                    "sectors": "1024000",
                    "sectorsize": 512,
                    "size": "500.00 MB",
                    "start": "2048",
                    "uuid": null
                },
                "cciss!c0d0p2": {
                    "holders": [
                        "vg00-root",
                        "vg00-swap"
                    ],
                    "links": {
                        "ids": [],
                        "labels": [],
                        "masters": [
                            "dm-0",
                            "dm-1"
                        ],
                        "uuids": []
                    },
                    "sectors": "285720576",
                    "sectorsize": 512,
                    "size": "136.24 GB",
                    "start": "1026048",
                    "uuid": null
                }
            },
            "removable": "0",
            "rotational": "1",
            "sas_address": null,
            "sas_device_handle": null,
            "scheduler_mode": "deadline",
            "sectors": "286749480",
            "sectorsize": "512",
            "size": "136.73 GB",
            "support_discard": "0",
            "vendor": "HP",
            "virtual": 1
        },
        "cciss!c0d1": {
            "holders": [
                "vg01-data"
            ],
            "host": "RAID bus controller: Hewlett-Packard Company Smart Array G6 controllers (rev 01)",
            "links": {
                "ids": [],
                "labels": [],
                "masters": [
                    "dm-2"
                ],
                "uuids": []
            },
            "model": "LOGICAL VOLUME",
            "partitions": {},
            "removable": "0",
            "rotational": "1",
            "scheduler_mode": "deadline",
            "sectors": "1757614684",
            "sectorsize": "512",
            "vendor": "HP",
            "virtual": 1
        },
        "dm-0": {
            "holders": [],
            "links": {
                "ids": [
                    "dm-name-vg00-root",
                    "dm-uuid-LVM-Qm3xN1bT8pW0cV4yR7kZ2aL9sD6fG5hJtE1uI8oP3qA7wS2xC4vB6nM0lK9jH5gF"
                ],
                "labels": [],
                "masters": [],
                "uuids": []
            },
            "model": null,
            "partitions": {},
            "removable": "0",
            "rotational": "1",
            "scheduler_mode": "",
            "sectors": "62914560",
            "sectorsize": "512",
            "vendor": null,
            "virtual": 1
        },
        "dm-1": {
            "holders": [],
            "links": {
                "ids": [
                    "dm-name-vg00-swap",
                    "dm-uuid-LVM-Qm3xN1bT8pW0cV4yR7kZ2aL9sD6fG5hJ0aS9dF8gH7jK6lZ5xC4vB3nM2qW1eR"
                ],
                "labels": [],
                "masters": [],
                "uuids": []
            },
            "partitions": {},
            "removable": "0",
            "rotational": "1",
            "scheduler_mode": "",
            "sectors": "16777216",
            "sectorsize": "512",
            "virtual": 1
        },
        "dm-2": {
            "holders": [],
            "links": {
                "ids": [
                    "dm-name-vg01-data",
                    "dm-uuid-LVM-Zx8cV7bN6mL5kJ4hG3fD2sA1qW0eR9tYuI8oP7aS6dF5gH4jK3lZ2xC1vB0nM9qW8e"
                ],
                "labels": [],
                "masters": [],
                "uuids": []
            },
            "partitions": {},
            "removable": "0",
            "rotational": "1",
            "scheduler_mode": "",
            "sectors": "1757609984",
            "sectorsize": "512",
            "virtual": 1
        }
    },
    "ansible_distribution": "CentOS",
    "ansible_distribution_version": "6.10",
    "ansible_kernel": "2.6.32-754.el6.x86_64",
    "ansible_mounts": [
        {
            "device": "/dev/mapper/vg00-root",
            "fstype": "ext4",
            "mount": "/",
            "options": "rw,noatime"
        },
        {
            "device": "/dev/cciss/c0d0p1",
            "fstype": "ext4",
            "mount": "/boot",
            "options": "rw"
        },
        {
            "device": "/dev/mapper/vg01-data",
            "fstype": "xfs",
            "mount": "/data",
            "options": "rw,nobarrier,logbufs=8"
        }
    ],
    "ansible_proc_cmdline": {
        "elevator": "deadline",
        "quiet": true,
        "ro": true,
        "root": "/dev/mapper/vg00-root"
    },
    "ansible_system": "Linux",
    "ansible_virtualization_role": "host",
    "ansible_virtualization_type": "kvm"
}
