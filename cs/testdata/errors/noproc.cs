shared x; /* ERROR "program has no processes" */
