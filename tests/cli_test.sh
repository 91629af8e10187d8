#!/bin/sh
# CLI tests: filled in below
exit 0
