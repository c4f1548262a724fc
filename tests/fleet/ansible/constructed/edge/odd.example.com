{
    "ansible_architecture": "x86_64",
    "ansible_devices": {
        "nvme0n1": {
            "holders": [],
            "links": {"ids": ["nvme-eui.0025388b91b2c3d4", "nvme-SAMSUNG_MZQL21T9HCJR-00A07_S64GNE0R000001"], "labels": [], "masters": [], "uuids": []},
            "model": "SAMSUNG MZQL21T9HCJR-00A07",
            "partitions": {},
            "removable": "0",
            "rotational": "0",
            "scheduler_mode": "none",
            "sectors": 468843606,
            "sectorsize": "4096",
            "serial": "S64GNE0R000001",
            "vendor": null,
            "virtual": 1
        },
        "sda": {
            "holders": [],
            "links": {"ids": [], "labels": [], "masters": [], "uuids": []},
            "model": "\u001b[31mEVIL\u001b[0m",
            "partitions": {},
            "removable": "0",
            "sectors": "x",
            "serial": "WD WCC4 E123",
            "vendor": "ATA",
            "virtual": 1
        },
        "sdb": {
            "holders": [],
            "links": {"ids": [], "labels": [], "masters": [], "uuids": []},
            "partitions": {},
            "rotational": "yes",
            "scheduler_mode": "noop deadline [cfq]",
            "virtual": 1
        },
        "../sdc": {"rotational": "1", "scheduler_mode": "mq-deadline"},
        "sdd\u0007": {"rotational": "1", "scheduler_mode": "mq-deadline"},
        "sde": "not a mapping"
    },
    "ansible_distribution": "OracleLinux",
    "ansible_distribution_version": "8.9",
    "ansible_hostname": "bad host",
    "ansible_kernel": "5.15.0; rm -rf /",
    "ansible_mounts": [
        {"device": "/dev/nvme0n1", "fstype": "xfs", "mount": "/srv", "options": "rw,noatime"},
        {"device": "/dev/sda1", "mount": "/boot"},
        "not a mapping"
    ],
    "ansible_cmdline": {"root": "/dev/nvme0n1", "quiet": true, "bad\u001bkey": "1"},
    "ansible_system": "Linux",
    "ansible_virtualization_role": "guest",
    "ansible_virtualization_type": "SomeHypervisor"
}
