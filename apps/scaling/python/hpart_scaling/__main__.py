"""`python3 -m hpart_scaling ...`: the same as the `hpart-scaling` launcher."""
import sys

from . import main

sys.exit(main())
