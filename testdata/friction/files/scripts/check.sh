#!/bin/sh
echo consistent
