"""``iosched fleet`` over files: hosts read, converted and planned in a process pool, and the fleet's
inputs (Ansible facts on disk, inventories, workload files)."""
