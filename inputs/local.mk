# parameter files users start from
# gcrm_io: GCRM-IO's inputs in our words (zgrd.in is the small default run)
GCRM_INPUTS = inputs/zgrd.in inputs/zgrd.in.r3 inputs/zgrd.in.r4 inputs/zgrd.in.r5 inputs/zgrd.in.r6 \
	inputs/zgrd.in.r7 inputs/zgrd.in.r8 inputs/zgrd.in.r9 inputs/zgrd.in.r10 inputs/zgrd.in.r11 \
	inputs/ZGrd.desc inputs/ZGrd.LZ.fcfg.nophys inputs/ZGrd.CP.lyr.fcfg inputs/ZGrd.CP.lyr.fcfg.groups \
	inputs/ZGrd.CP.lyr.fcfg.one inputs/ZGrd.CP.fcfg
RUN_INPUTS += $(GCRM_INPUTS)
climioinputs_DATA += $(GCRM_INPUTS)
EXTRA_DIST += $(GCRM_INPUTS)
