import sys

from harness.interfaces.console import main

sys.exit(main())
