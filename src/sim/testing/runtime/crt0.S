# Entry of bare test programs: a stack in L2, a zeroed .bss, main(), exit(main's result).
  .section .text.start, "ax"
  .globl _start
_start:
  la sp, __stack_top
  la a0, __bss_start
  la a1, __bss_end
1:
  bgeu a0, a1, 2f
  sw zero, 0(a0)
  addi a0, a0, 4
  j 1b
2:
  li a0, 0
  li a1, 0
  call main
  call exit
3:
  j 3b
