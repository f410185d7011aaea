process P { cs: skip; }
process Q { skip; }
process T[i in 0..1] { t: skip; }
mutex cs; /* ERROR "mutex cs: 1 process\(es\) have label cs, at least two are needed" */
mutex none; /* ERROR "mutex none: 0 process" */
forbidden Z@cs; /* ERROR "unknown process Z" */
forbidden P@nope; /* ERROR "process P has no label nope" */
forbidden T@t; /* ERROR "process T is a template: name an instance" */
forbidden T[5]@t; /* ERROR "unknown process T\[5\]" */
forbidden P[0]@cs; /* ERROR "process P is not a template" */
forbidden P@cs, P@cs; /* ERROR "process P appears twice in forbidden" */
