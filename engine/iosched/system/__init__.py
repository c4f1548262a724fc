"""Reading real systems: live roots, captured trees, sosreports, supportconfigs, Ansible facts."""
