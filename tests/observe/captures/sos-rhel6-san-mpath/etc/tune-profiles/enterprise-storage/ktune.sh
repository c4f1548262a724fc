#!/bin/sh
# Stand-in for the profile script of tuned v0.2.22 tune-profiles/enterprise-storage/ktune.sh (its text is not
# copied): start() remounts non-root, non-boot file systems with nobarrier and multiplies disk read-ahead by 4.
